import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
import { noCycle } from './scripts/lib/eslint-no-cycle.mjs';

// Every web feature may import only itself among the features (docs/architecture.md#web-layers).
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Server modules meet only through their index.ts (docs/decisions/039-one-bookings-module.md).
const serverModules = readdirSync(new URL('./apps/server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const THROUGH_INDEX = 'another module is reached through its index.ts only: export what you need there';
const moduleZones = [
  ...serverModules.flatMap((m) =>
    serverModules
      .filter((other) => other !== m)
      .map((other) => ({
        target: `./apps/server/src/modules/${m}`,
        from: `./apps/server/src/modules/${other}`,
        except: ['./index.ts'],
        message: THROUGH_INDEX,
      })),
  ),
  ...serverModules.map((m) => ({
    target: './apps/server/src/app.ts',
    from: `./apps/server/src/modules/${m}`,
    except: ['./index.ts'],
    message: THROUGH_INDEX,
  })),
];

/** The cache and NOTIFY machinery, where it is now (lib/) and where it goes (platform/). */
const CACHE_AND_NOTIFY = ['read-cache', 'notify', 'personal-cache', 'settled-writes', 'events'].flatMap((name) => [
  `./apps/server/src/platform/${name}*`,
  `./apps/server/src/platform/${name}*/**`,
  `./apps/server/src/lib/${name}*`,
  `./apps/server/src/plugins/${name}*`,
]);

/** The statement that sends a chat message's NOTIFY itself (docs/decisions/013-chat-delivery.md), until the platform's events carry it. */
const NOTIFY_IN_SQL = ['apps/server/src/modules/chats/chats.repo.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      '.tmp/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'check-file': checkFile, spotter: { rules: { 'no-cycle': noCycle } } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/web/tsconfig.json', 'apps/server/tsconfig.json', 'packages/shared/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // import-x/no-cycle skips type-only imports; this one counts them (docs/decisions/038-platform-plugins.md)
      'spotter/no-cycle': 'error',
      // the TypeScript compiler checks what these would
      'import-x/no-unresolved': 'off',
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js,mjs}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: webFeatures.map((f) => ({
            target: `./apps/web/src/features/${f}`,
            from: './apps/web/src/features',
            except: [`./${f}`],
            message: 'a feature does not import another feature: move what both need to components/ or lib/',
          })),
        },
      ],
    },
  },
  {
    // the layers of the web app import one way: app → features → components/lib → shared
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*', '**/app/*', '@/features/*', '@/app/*'],
              message: 'components/ and lib/ must not import features or app',
            },
          ],
        },
      ],
    },
  },
  {
    // only repos query tables (platform/jobs.ts is the job queue's own repo; db/ is the schema's home)
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repo.ts', 'apps/server/src/db/**', 'apps/server/src/platform/jobs.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**'], message: 'the server does not import the web app' },
            { group: ['**/db/schema'], message: 'only repos query tables: call your repo, or the owning module’s service' },
          ],
        },
      ],
    },
  },
  {
    // a module's service calls its own repo and other modules' services, never their repos
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/**/*.repo.ts', 'apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**'], message: 'the server does not import the web app' },
            { group: ['**/db/schema'], message: 'only repos query tables: call your repo, or the owning module’s service' },
            { group: ['../*/*.repo'], message: 'another module’s repo is its own business: call that module’s service' },
          ],
        },
      ],
    },
  },
  {
    // routes → service → repo → db: a route parses, authorises and calls its service
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**'], message: 'the server does not import the web app' },
            { group: ['**/db/schema', '**/db/client', '**/*.repo'], message: 'a route calls its service; queries live in repos' },
          ],
        },
      ],
    },
  },
  {
    // a repo only queries: it calls no service and no route
    files: ['apps/server/src/**/*.repo.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**'], message: 'the server does not import the web app' },
            { group: ['**/*.service', '**/*.routes', '**/plugins/**'], message: 'a repo only queries; rules live in services' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/modules/**', '**/plugins/**'], message: 'the db layer imports nothing from modules or plugins' },
          ],
        },
      ],
    },
  },
  {
    // the server's layers (docs/decisions/038-platform-plugins.md): lib → nothing of the app;
    // platform → lib and db, never a module; modules and plugins → never the cache or NOTIFY machinery
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/server/src/platform',
              from: './apps/server/src/modules',
              message: 'platform/ serves every module and imports none: a module registers with it (a job kind, a route option)',
            },
            {
              target: './apps/server/src/lib',
              from: './apps/server/src',
              except: ['./lib'],
              message: 'lib/ holds small pure helpers: it imports nothing of the app (no modules, plugins, platform or db)',
            },
            {
              target: ['./apps/server/src/modules/**', './apps/server/src/plugins/**'],
              from: CACHE_AND_NOTIFY,
              message: 'invalidation comes from the database: modules and plugins neither call the cache nor NOTIFY',
            },
            ...moduleZones,
          ],
        },
      ],
    },
  },
  {
    // LISTEN and NOTIFY, and every channel's name, are the platform's events: no module's or plugin's
    // statement sends or listens (a trigger or the platform does)
    files: ['apps/server/src/modules/**/*.ts', 'apps/server/src/plugins/**/*.ts'],
    ignores: NOTIFY_IN_SQL,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['TemplateElement[value.raw=', 'Literal[value='].map((node) => ({
          selector: `${node}/\\bpg_notify\\s*\\(|^\\s*(listen|unlisten|notify)\\s+\\S/i]`,
          message: 'NOTIFY and LISTEN belong to the platform: a module’s change reaches others through a trigger or an event',
        })),
      ],
    },
  },
);

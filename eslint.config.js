import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

// Every web feature may import only itself among the features (docs/architecture.md#web-layers).
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

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
    plugins: { 'check-file': checkFile },
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
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
    // only repos query tables (lib/jobs.ts is the job queue's own repo; db/ is the schema's home)
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repo.ts', 'apps/server/src/db/**', 'apps/server/src/lib/jobs.ts'],
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
);

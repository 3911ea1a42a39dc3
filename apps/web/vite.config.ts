import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { minimal2023Preset } from '@vite-pwa/assets-generator/config';
import { VitePWA } from 'vite-plugin-pwa';
import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite';
import { defineConfig } from 'vitest/config';

const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

/**
 * The entry (main.tsx) only starts the first screen's chunk and then imports the app (app/start.tsx:
 * React, the router, the layout) dynamically, so without hints the browser would fetch the app only
 * after the entry ran, and the landing page's chunk only after the app ran. This adds modulepreload
 * links for the app chunk and everything it imports, and for the home chunk, and preload links for the
 * latin heading and body fonts, so they download in parallel with the entry and text never swaps
 * (no layout shift). A page the server rendered is on screen before the app runs, and its
 * JavaScript would only compete with the page and the fonts for a phone's bandwidth: the server
 * leaves out the links marked `data-app` (docs/decisions/031-server-rendered-first-page.md), and the entry loads the app after
 * the first paint.
 */
function preloadApp(): Plugin {
  return {
    name: 'spotter:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const chunks = new Map<string, Rollup.OutputChunk>();
        for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
        /** A chunk and every chunk it imports statically, depth first. */
        const withImports = (name: string, into = new Set<string>()) => {
          if (into.has(name)) return into;
          into.add(name);
          for (const imported of chunks.get(name)?.imports ?? []) withImports(imported, into);
          return into;
        };
        // Chunks the entry imports statically are preloaded by Vite already.
        const entryDeps = new Set<string>();
        for (const chunk of chunks.values()) if (chunk.isEntry) withImports(chunk.fileName, entryDeps);
        const preloaded = new Set<string>();
        const byModule = (suffix: string) => {
          const chunk = [...chunks.values()].find((c) => c.moduleIds.some((id) => id.endsWith(suffix)));
          if (!chunk) throw new Error(`spotter:preload-app: no chunk for ${suffix}`);
          return chunk.fileName;
        };
        for (const name of [
          ...withImports(byModule('/src/app/start.tsx')),
          ...withImports(byModule('/features/landing/components/home-page.tsx')),
        ]) {
          if (!entryDeps.has(name)) preloaded.add(name);
        }
        // `data-app`: a page the server rendered goes without them (docs/decisions/031-server-rendered-first-page.md), it paints
        // first
        const tags: HtmlTagDescriptor[] = [...preloaded].map((name) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href: `/${name}`, 'data-app': '' },
          injectTo: 'head',
        }));
        for (const file of Object.values(bundle)) {
          if (file.type === 'asset' && /^assets\/(outfit|inter)-latin-wght-normal-.*\.woff2$/.test(file.fileName)) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file.fileName}`, crossorigin: '' },
              injectTo: 'head',
            });
          }
        }
        return tags;
      },
    },
  };
}

/**
 * The app's one stylesheet (Tailwind, about 11 KB gzip) goes into index.html as a <style>, so the
 * first paint waits for no request but the page itself (on a phone the stylesheet was a render-blocking
 * round trip, sharing the line with the scripts and fonts). The CSP allows inline styles.
 *
 * Vite's preloader, asked for a chunk, also loads that chunk's CSS unless the page has a
 * `<link rel="stylesheet">` with its address: a disabled one stands for the inlined sheet, and a
 * disabled stylesheet is never fetched. Hence also the check that there is exactly one stylesheet:
 * a second (a lazily loaded component's own CSS) would need this reconsidered.
 */
function inlineCss(): Plugin {
  return {
    name: 'spotter:inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const sheets = Object.values(bundle).filter((file) => file.type === 'asset' && file.fileName.endsWith('.css'));
        if (sheets.length !== 1) throw new Error(`spotter:inline-css: expected one stylesheet, found ${sheets.length}`);
        const [sheet] = sheets as Rollup.OutputAsset[];
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${sheet.fileName}"[^>]*>`);
        if (!link.test(html)) throw new Error(`spotter:inline-css: index.html does not link ${sheet.fileName}`);
        const css = String(sheet.source).replaceAll('</style', '<\\/style');
        return html.replace(
          link,
          () => `<style>${css}</style>\n    <link rel="stylesheet" href="/${sheet.fileName}" disabled />`,
        );
      },
    },
  };
}

/**
 * Which chunk a module goes to (the `codeSplitting` groups below), worked out from the module graph
 * once it is known (buildEnd runs before the chunks are made). On a phone every request costs a
 * round trip and HTTP/1.1 allows six at once, so a screen should need a handful of files rather than
 * dozens of 1 KB ones, without loading code it does not use:
 * - `boot`: what the entry (main.tsx) imports. It must not wait for React.
 * - `app`: the app shell every screen runs, what app/start.tsx imports however deep (layout, header,
 *   lib), apart from `boot`. lucide-react's index re-exports every icon, so every icon the app uses
 *   lands here too: about 5 KB gzip, for one request instead of a dozen tiny ones.
 * - `common`: the small app modules and icons that several screens share and that reach no heavy
 *   library (zod, forms, dialogs), so sharing them costs a screen little.
 * The shared package's modules are left to the bundler, so a screen runs only the schemas it uses.
 * Each set is empty until a build has run buildEnd.
 */
const chunkOf = { boot: new Set<string>(), app: new Set<string>(), common: new Set<string>() };

const HEAVY = /node_modules[\\/](zod|react-hook-form|@hookform|@radix-ui)[\\/]/;
const APP_SOURCE = /apps[\\/]web[\\/]src[\\/]|node_modules[\\/]lucide-react[\\/]/;

function planChunks(): Plugin {
  return {
    name: 'spotter:plan-chunks',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const moduleIds = [...this.getModuleIds()];
      const importsOf = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
      const closureOf = (suffix: string) => {
        const root = moduleIds.find((id) => id.endsWith(suffix));
        if (!root) throw new Error(`spotter:plan-chunks: ${suffix} is not in the build`);
        const found = new Set<string>();
        const stack = [root];
        while (stack.length) {
          const id = stack.pop()!;
          if (found.has(id)) continue;
          found.add(id);
          stack.push(...importsOf(id));
        }
        return found;
      };
      /** Whether a module or anything it imports statically matches `pattern`. */
      const reaches = (pattern: RegExp) => {
        const known = new Map<string, boolean>();
        const check = (id: string): boolean => {
          if (pattern.test(id)) return true;
          if (!known.has(id)) {
            known.set(id, false); // an import cycle: decided by the other modules in it
            known.set(id, importsOf(id).some(check));
          }
          return known.get(id)!;
        };
        return check;
      };
      const isHeavy = reaches(HEAVY);
      const entry = closureOf('/src/main.tsx');
      const shell = closureOf('/src/app/start.tsx');
      for (const set of Object.values(chunkOf)) set.clear();
      for (const id of entry) if (!id.endsWith('/src/main.tsx')) chunkOf.boot.add(id);
      for (const id of shell) if (!entry.has(id)) chunkOf.app.add(id);
      for (const id of moduleIds) {
        if (APP_SOURCE.test(id) && !entry.has(id) && !shell.has(id) && !isHeavy(id)) chunkOf.common.add(id);
      }
    },
  };
}

/** The header's ink (index.css `--color-ink`), the page's theme-color. */
const INK = '#0b1020';
const onInk = { padding: 0.3, resizeOptions: { background: INK } };

/**
 * Installable and offline (docs/decisions/048-service-worker.md, docs/product.md#installable-and-offline):
 * the web app manifest, its icons drawn from the logo (public/favicon.svg) at build time, and the
 * service worker built from src/sw/sw.ts with the list of this build's files to precache. The app
 * registers the worker itself after the first paint (lib/start-service-worker.ts), so nothing is injected
 * into the page but the manifest and icon links.
 */
const pwa = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    injectRegister: false,
    registerType: 'prompt',
    manifest: {
      id: '/',
      name: 'Spotter · Find your personal trainer',
      short_name: 'Spotter',
      description: 'Find a personal trainer you can trust: compare coaches, read real reviews, chat and book sessions.',
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: INK,
      background_color: INK,
      shortcuts: [
        { name: 'Find a trainer', url: '/trainers', icons: [{ src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' }] },
        { name: 'My sessions', url: '/user/profile', icons: [{ src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' }] },
      ],
    },
    pwaAssets: {
      image: 'public/favicon.svg',
      // the 2023 set (64, 192 and 512, maskable 512, apple-touch 180, favicon.ico), the padded ones on ink
      preset: {
        ...minimal2023Preset,
        maskable: { ...minimal2023Preset.maskable, ...onInk },
        apple: { ...minimal2023Preset.apple, ...onInk },
      },
      overrideManifestIcons: true,
      // index.html has its theme-color
      injectThemeColor: false,
    },
    injectManifest: {
      // the scripts, the shell, fonts and icons; pictures are cached when first shown. Not the operator
      // console (operators only, never offline) nor the fonts' non-Latin subsets (loaded when a page needs one)
      globPatterns: ['**/*.{js,css,html,woff2,svg,png,ico}'],
      globIgnores: ['assets/console-*', 'assets/*-{cyrillic,cyrillic-ext,greek,greek-ext,vietnamese}-wght-*.woff2'],
      rollupFormat: 'iife',
    },
  });

/**
 * The page renderer the server runs for visitors' first requests (app/render-page.tsx,
 * docs/decisions/031-server-rendered-first-page.md): `vite build --ssr` writes it to dist-ssr/, beside dist/ rather than in it,
 * so it is not served. Its libraries are bundled in (`noExternal`), React's production build among them; each screen
 * stays a chunk of its own, loaded when first rendered (a person's own screens never are). A server
 * still running the previous build when a new one replaces these files renders the shell for a
 * screen whose chunk is gone, and loads the new renderer at its next page.
 */
const SSR_BUILD = { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false };

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [planChunks(), preloadApp(), inlineCss(), pwa()])],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  ssr: { noExternal: true },
  // the renderer runs React's production build whatever the server's NODE_ENV, as the browser does
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: isSsrBuild
    ? SSR_BUILD
    : {
        outDir: 'dist',
        emptyOutDir: true,
        rolldownOptions: {
          output: {
            // Named chunks (see planChunks); vendor chunks also stay cached across app releases. A group
            // of higher priority takes its modules first.
            codeSplitting: {
              groups: [
                // what every screen runs: React, the router, React Query
                {
                  name: 'vendor',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/,
                  priority: 30,
                },
                { name: 'boot', test: (id) => chunkOf.boot.has(id), priority: 28, includeDependenciesRecursively: false },
                { name: 'app', test: (id) => chunkOf.app.has(id), priority: 25, includeDependenciesRecursively: false },
                // for the screens that validate (a form, the trainer list's address); not the landing page
                { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
                { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 20 },
                { name: 'toasts', test: /node_modules[\\/]sonner[\\/]/, priority: 20 },
                { name: 'dialog', test: /node_modules[\\/]@radix-ui[\\/]/, priority: 20 },
                {
                  name: 'common',
                  test: (id) => chunkOf.common.has(id),
                  minShareCount: 2,
                  // the bigger ones (the account layout, the blog posts, chat's API) stay with the screens using them
                  maxModuleSize: 6000,
                  priority: 10,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
    // A loaded 2-core machine runs a user-event test several times slower than an idle one; the
    // waits inside a test (asyncUtilTimeout, setup.ts) must fit in it.
    testTimeout: 30_000,
  },
}));

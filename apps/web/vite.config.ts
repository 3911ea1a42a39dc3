import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

/**
 * The home route is lazy like every other route, so without a hint the browser would fetch it
 * only after the entry chunk ran (a request waterfall on the landing page). This adds
 * modulepreload links for the home chunk and preload links for the latin heading and body fonts,
 * so they download in parallel with the entry chunk and text never swaps (no layout shift).
 */
function preloadLanding(): Plugin {
  return {
    name: 'spotter:preload-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const tags: HtmlTagDescriptor[] = [];
        // Chunks the entry imports statically are preloaded by Vite already.
        const entryDeps = new Set<string>();
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && file.isEntry) [file.fileName, ...file.imports].forEach((name) => entryDeps.add(name));
        }
        for (const file of Object.values(bundle)) {
          if (file.type === 'asset' && /^assets\/(outfit|inter)-latin-wght-normal-.*\.woff2$/.test(file.fileName)) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file.fileName}`, crossorigin: '' },
              injectTo: 'head',
            });
          }
          if (file.type === 'chunk' && file.facadeModuleId?.endsWith('/features/landing/components/home-page.tsx')) {
            for (const name of [file.fileName, ...file.imports]) {
              if (entryDeps.has(name)) continue;
              tags.push({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `/${name}` }, injectTo: 'head' });
            }
          }
        }
        return tags;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadLanding()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Named vendor chunks: readable build output, and they stay cached across app releases.
        advancedChunks: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
            { name: 'toasts', test: /node_modules[\\/]sonner[\\/]/ },
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
});

// What `npm start` and `npm run cluster` share: build what is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under `dir`, leaving out node_modules and the builds (dist, dist-ssr). */
function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name === 'dist-ssr') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
export const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

/**
 * Node's options for the built server, wherever it is started (npm start, the cluster, the benchmarks).
 * `--heap-growing-percent=25`: after a full collection V8 lets the heap grow to 1.25 times what
 * survived before the next. Its own factor under load went up to 4: about 40 MiB live, 160 MiB
 * before each collection, most of a loaded server's memory above PGlite's (docs/benchmarks.md).
 * At 50 the heap peaked about 12 MiB higher for the same throughput (docs/decisions/033-read-cache-size.md).
 * `--max-semi-space-size=4`: the young generation (where each request's objects are born and die)
 * stays at 3 × 4 MiB instead of growing to 3 × 16 MiB under load; about 20 MiB less at the peak,
 * for more, shorter scavenges; list reads as fast, log-ins about 4 % slower, within the noise
 * (docs/benchmarks.md).
 */
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--heap-growing-percent=25', '--max-semi-space-size=4'];

/**
 * The environment the built server runs with, over the caller's. glibc serves a block of at least
 * the mmap threshold from a mapping of its own, returned when freed; smaller ones come from its
 * heaps, where freed memory between live blocks stays in the process. Left alone it raises the
 * threshold each time a large block is freed, after which the Argon2 hashes (12 MiB each) stayed.
 * At 32 KiB, V8's compiler zones (32 KiB blocks, freed by the thousand on its worker threads after
 * PGlite's WebAssembly is compiled) go back too: a PGlite server held about 45 MiB of such free
 * memory at 128 KiB. It costs 1–8 % more CPU a request (docs/decisions/032-server-memory.md). A value already in
 * the environment wins.
 */
export const serverEnv = (env = process.env) => ({ MALLOC_MMAP_THRESHOLD_: '32768', ...env });

/** The built web app (its page and its server renderer, docs/decisions/031-server-rendered-first-page.md) and server. */
export const outputsOf = (root) => ({
  webOut: join(root, 'apps/web/dist/index.html'),
  rendererOut: join(root, 'apps/web/dist-ssr/render-page.js'),
  serverOut: join(root, 'apps/server/dist/main.js'),
});

/** Which builds are missing or older than their sources (or the shared package's). */
export function staleBuilds(root) {
  const { webOut, rendererOut, serverOut } = outputsOf(root);
  const shared = newest(join(root, 'packages/shared'));
  return {
    web: Math.max(shared, newest(join(root, 'apps/web'))) > Math.min(mtime(webOut), mtime(rendererOut)),
    server: Math.max(shared, newest(join(root, 'apps/server'))) > mtime(serverOut),
  };
}

/** Builds the web app and the server when missing or older than their sources (or the shared package's). */
export function buildIfStale(root, run) {
  const { webOut, serverOut } = outputsOf(root);
  const stale = staleBuilds(root);
  if (stale.web) {
    console.log('Building the web app…');
    run('building the web app', 'npm', ['run', 'build', '-w', '@spotter/web']);
  }
  if (stale.server) {
    console.log('Building the server…');
    run('building the server', 'npm', ['run', 'build', '-w', '@spotter/server']);
  }
  return { webOut, serverOut };
}

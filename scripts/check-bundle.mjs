// Budget: the JS and CSS that `/` loads before any lazy route, gzipped, and the size of each lazily
// loaded chunk. Fails with the sizes found. Also reports what each main route loads first.
//
//   node scripts/check-bundle.mjs          the budget check (`npm test`)
//   node scripts/check-bundle.mjs --json   the figures as JSON (bench/run.mjs); never fails on budget
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = { js: 150 * 1024, css: 30 * 1024, lazyChunk: 100 * 1024 };
/**
 * The routes reported, each named by the chunks it loads lazily on top of the entry: the module a
 * route's `lazy()` imports (apps/web/src/app/router.tsx) gives its chunk's name (Vite names a chunk
 * after its module). The booking dialog is the profile plus the chunk the dialog loads on opening.
 */
const ROUTES = [
  { route: '/', chunks: ['home-page'] },
  { route: '/trainers', chunks: ['trainer-list-page'], without: ['zod'] },
  { route: '/trainer/profile/:id', chunks: ['trainer-profile-route'] },
  { route: '/BMI', chunks: ['bmi-page'] },
  { route: '/users/login', chunks: ['login-page'], without: ['zod'] },
  { route: '/users/register', chunks: ['sign-up-page'], without: ['zod'] },
  { route: '/trainer/chat (inbox)', chunks: ['inbox-page'] },
  { route: 'booking dialog (on a profile)', chunks: ['trainer-profile-route', 'booking-flow'] },
];

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const refs = (re) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ''));
const js = [
  ...new Set([...refs(/<script[^>]+src="([^"]+\.js)"/g), ...refs(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)]),
];
const css = refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g);
const gzCache = new Map();
const gzOne = (f) => {
  if (!gzCache.has(f)) gzCache.set(f, gzipSync(readFileSync(join(dist, f)), { level: 9 }).length);
  return gzCache.get(f);
};
const gz = (files) => files.reduce((n, f) => n + gzOne(f), 0);
const size = { js: gz(js), css: gz(css) };
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// The chunk graph: each chunk's static imports, and for each dynamic import the files Vite
// preloads with it (`__vite__mapDeps([…])`: the chunk, its static imports and its CSS).
const assets = readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);
const source = (f) => readFileSync(join(dist, f), 'utf8');
const graph = new Map();
for (const f of assets.filter((a) => a.endsWith('.js'))) {
  const text = source(f);
  const local = (name) => `assets/${name.replace(/^\.\//, '')}`;
  const imports = [...text.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.\/[^"'`]+\.js)["'`]/g)].map((m) => local(m[1]));
  const depList = /m\.f\|\|\(m\.f=(\[[^\]]*\])\)/.exec(text);
  const deps = depList ? JSON.parse(depList[1]) : [];
  const dynamic = new Map();
  const dynamicRe = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)((?:(?!import\()[^])*?)__vite__mapDeps\(\[([\d,\s]*)\]\)/g;
  for (const m of text.matchAll(dynamicRe)) {
    const indices = m[3].split(',').filter((s) => s.trim() !== '');
    dynamic.set(local(m[1]), [local(m[1]), ...indices.map((i) => deps[Number(i)]).filter(Boolean)]);
  }
  for (const m of text.matchAll(/import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g))
    if (!dynamic.has(local(m[1]))) dynamic.set(local(m[1]), [local(m[1])]);
  graph.set(f, { imports, dynamic });
}
/** The files and everything they import statically. */
function closure(files) {
  const seen = new Set();
  const stack = [...files];
  while (stack.length) {
    const f = stack.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of graph.get(f)?.imports ?? []) stack.push(i);
  }
  return seen;
}
const chunkNamed = (name) => {
  const found = assets.filter((a) => new RegExp(`^assets/${name}-[\\w-]{8}\\.js$`).test(a));
  return found.length === 1 ? found[0] : undefined;
};

const initial = closure(js);
const lazyTargets = new Set([...graph.values()].flatMap((g) => [...g.dynamic.keys()]));
const routes = ROUTES.map(({ route, chunks, without = [] }) => {
  const files = new Set([...initial, ...css]);
  const missing = [];
  for (const name of chunks) {
    const chunk = chunkNamed(name);
    if (!chunk) {
      missing.push(name);
      continue;
    }
    const preloaded = [...graph.values()].flatMap((g) => g.dynamic.get(chunk) ?? []);
    for (const f of closure([chunk, ...preloaded.filter((p) => p.endsWith('.js'))])) files.add(f);
    for (const f of preloaded.filter((p) => p.endsWith('.css'))) files.add(f);
  }
  const own = chunkNamed(chunks[chunks.length - 1]);
  const list = [...files];
  return {
    route,
    js: gz(list.filter((f) => f.endsWith('.js'))),
    css: gz(list.filter((f) => f.endsWith('.css'))),
    files: list.length,
    ownChunk: own ? { file: own, gzip: gzOne(own) } : null,
    missing,
    unwanted: without.map(chunkNamed).filter((f) => f && files.has(f)),
  };
});
const lazyChunks = [...lazyTargets]
  .filter((f) => !initial.has(f) && graph.has(f))
  .map((f) => ({ file: f, gzip: gzOne(f) }))
  .sort((a, b) => b.gzip - a.gzip);
const overLazy = lazyChunks.filter((c) => c.gzip > BUDGET.lazyChunk);

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      { budget: BUDGET, initial: { ...size, jsFiles: js.length, cssFiles: css.length }, routes, lazyChunks },
      null,
      2,
    ),
  );
  process.exit(0);
}

console.log(`initial JS of /: ${kb(size.js)} gzip (budget ${kb(BUDGET.js)}) in ${js.length} file(s)`);
console.log(`initial CSS of /: ${kb(size.css)} gzip (budget ${kb(BUDGET.css)}) in ${css.length} file(s)`);
const largest = lazyChunks[0];
console.log(
  `largest lazy chunk: ${largest ? `${largest.file.replace('assets/', '')} ${kb(largest.gzip)}` : 'none'} gzip (budget ${kb(BUDGET.lazyChunk)} each, ${lazyChunks.length} lazy chunk(s))`,
);
for (const r of routes) {
  const own = r.ownChunk ? `, own chunk ${kb(r.ownChunk.gzip)}` : '';
  const missing = r.missing.length ? ` (chunk not found: ${r.missing.join(', ')})` : '';
  console.log(`  ${r.route}: JS ${kb(r.js)}, CSS ${kb(r.css)} gzip in ${r.files} file(s)${own}${missing}`);
}
if (js.length === 0) {
  console.error('no script found in index.html');
  process.exit(1);
}
// Pictures outside assets/ have no content hash, so they cannot be cached for a year (issue 12):
// import them (`…svg?no-inline`) instead of putting them in apps/web/public/. The favicon, the app's
// icons the web app manifest names and the Apple touch icon are asked for by their fixed names
// (docs/product.md#installable-and-offline).
const PICTURE = /\.(svg|png|jpe?g|webp|avif|gif)$/i;
const manifestFile = join(dist, 'manifest.webmanifest');
const appIcons = new Set(
  existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')).icons.map((icon) => icon.src.replace(/^\//, '')) : [],
);
const unhashedPictures = readdirSync(dist, { recursive: true })
  .map(String)
  .filter(
    (f) =>
      PICTURE.test(f) &&
      !f.startsWith('assets') &&
      f !== 'favicon.svg' &&
      !appIcons.has(f) &&
      !/^apple-touch-icon-\d+x\d+\.png$/.test(f),
  );
if (unhashedPictures.length) {
  console.error(`pictures without a hashed name (import them instead of using public/): ${unhashedPictures.join(', ')}`);
  process.exit(1);
}
// a name that matches no chunk would make the check pass whatever the route loads
const unknown = ROUTES.flatMap((r) => r.without ?? []).filter((name) => !chunkNamed(name));
if (unknown.length) {
  console.error(`check-bundle: no chunk named ${unknown.join(', ')} in the build (see ROUTES' without)`);
  process.exit(1);
}
const unwanted = routes.filter((r) => r.unwanted.length);
for (const r of unwanted) console.error(`${r.route} loads ${r.unwanted.join(', ')} before its first render`);
if (unwanted.length) process.exit(1);
if (size.js > BUDGET.js || size.css > BUDGET.css || overLazy.length) {
  for (const c of overLazy) console.error(`lazy chunk ${c.file} is ${kb(c.gzip)} gzip, over ${kb(BUDGET.lazyChunk)}`);
  console.error('over budget');
  process.exit(1);
}

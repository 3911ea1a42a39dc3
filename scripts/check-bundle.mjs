// Budget: the JS and CSS that `/` loads before any lazy route, gzipped. Fails with the sizes found.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = { js: 150 * 1024, css: 30 * 1024 };
const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const refs = (re) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ''));
const js = [
  ...new Set([...refs(/<script[^>]+src="([^"]+\.js)"/g), ...refs(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)]),
];
const css = refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g);
const gz = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
const size = { js: gz(js), css: gz(css) };
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`initial JS of /: ${kb(size.js)} gzip (budget ${kb(BUDGET.js)}) in ${js.length} file(s)`);
console.log(`initial CSS of /: ${kb(size.css)} gzip (budget ${kb(BUDGET.css)}) in ${css.length} file(s)`);
if (js.length === 0) {
  console.error('no script found in index.html');
  process.exit(1);
}
if (size.js > BUDGET.js || size.css > BUDGET.css) {
  console.error('over budget');
  process.exit(1);
}

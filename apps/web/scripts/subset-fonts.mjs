// Writes src/fonts/: the latin files of Inter and Outfit cut down to what Spotter uses, and
// fonts.css, fontsource's @font-face rules with the latin ones pointing at those files.
//
//   node apps/web/scripts/subset-fonts.mjs           rewrite src/fonts/ (after a fontsource upgrade)
//   node apps/web/scripts/subset-fonts.mjs --check   exit 1 if src/fonts/ differs from what it would write
//
// The latin files are the ones every page preloads, so their bytes are on the first paint's path
// (docs/decisions/028-lean-first-screen-fonts-and-forms.md). Each keeps every character of fontsource's latin range (the
// same unicode-range, so names and reviews render as before) but:
// - Inter keeps the weights 400 to 900 only: the app sets none lighter (font-normal is its lightest);
// - both keep only the OpenType features the browser applies by default, plus `tnum` (Tailwind's
//   tabular-nums) and `case`; Inter's stylistic sets and character variants go.
// harfbuzz (through subset-font) gives the same bytes for the same input, so --check can compare.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL('../src/fonts/', import.meta.url));

const FEATURES = ['ccmp', 'locl', 'mark', 'mkmk', 'kern', 'liga', 'calt', 'rlig', 'rvrn', 'tnum', 'case'];

const FONTS = [
  { package: '@fontsource-variable/inter', family: 'inter', axes: { wght: { min: 400, max: 900 } } },
  { package: '@fontsource-variable/outfit', family: 'outfit', axes: undefined },
];

/** Every code point a CSS unicode-range covers ("U+0000-00FF,U+0131"), as a string. */
function charactersOf(unicodeRange) {
  let text = '';
  for (const part of unicodeRange.split(',')) {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    for (let code = parseInt(from, 16); code <= parseInt(to, 16); code++) text += String.fromCodePoint(code);
  }
  return text;
}

/** fonts.css and the subset files, by file name. */
async function buildFonts() {
  const files = new Map();
  const css = ['/* Written by apps/web/scripts/subset-fonts.mjs from fontsource; do not edit. Inter and Outfit: SIL OFL 1.1. */'];
  for (const font of FONTS) {
    const sheetPath = require.resolve(`${font.package}/wght.css`);
    const sheet = await readFile(sheetPath, 'utf8');
    for (const [, name, body] of sheet.matchAll(/\/\* ([\w-]+) \*\/\s*@font-face \{([^}]*)\}/g)) {
      if (!/-wght-normal$/.test(name)) continue;
      const src = /url\(\.\/files\/([\w-]+\.woff2)\)/.exec(body);
      if (!src) throw new Error(`subset-fonts: no woff2 in ${name}`);
      let url = `${font.package}/files/${src[1]}`;
      let display = 'swap';
      if (name === `${font.family}-latin-wght-normal`) {
        // Preloaded with every page. A page the server rendered can paint before they arrive (decision
        // 031): `optional` lets the browser wait for them a moment (about 100 ms) and otherwise keep the
        // fallback for that page view, so text never swaps and nothing moves; the next page has them.
        display = 'optional';
        const range = /unicode-range: ([^;]+);/.exec(body)[1];
        const original = await readFile(join(dirname(sheetPath), 'files', src[1]));
        const subset = await subsetFont(original, charactersOf(range), {
          targetFormat: 'woff2',
          variationAxes: font.axes,
          keepFeatures: FEATURES,
        });
        files.set(src[1], subset);
        url = `./${src[1]}`;
      }
      const rule = body
        .replace(/url\(\.\/files\/[\w-]+\.woff2\)/, `url(${url})`)
        .replace('font-display: swap;', `font-display: ${display};`);
      css.push(`\n/* ${name} */\n@font-face {${rule}}`);
    }
  }
  files.set('fonts.css', Buffer.from(`${css.join('\n')}\n`));
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildFonts();
  if (process.argv.includes('--check')) {
    const stale = [];
    for (const [name, bytes] of files) {
      const current = await readFile(join(OUT, name)).catch(() => null);
      if (!current || !current.equals(bytes)) stale.push(name);
    }
    if (stale.length) {
      console.error(`src/fonts/ is out of date (${stale.join(', ')}): run node apps/web/scripts/subset-fonts.mjs`);
      process.exit(1);
    }
  } else {
    await mkdir(OUT, { recursive: true });
    for (const [name, bytes] of files) await writeFile(join(OUT, name), bytes);
    for (const [name, bytes] of files) console.log(`${name} ${bytes.length} bytes`);
  }
}

#!/usr/bin/env node
// The repository is its own map: code and docs cite docs/ by links that resolve, never the team's files
// that do not ship with it. Fails (exit 1), listing file:line, on
// - a citation of the team's files: 'DECISIONS 4', 'spec section 7' / 'spec §7', ARCHITECTURE.md,
//   DESIGN.md, CONVENTIONS, `../shared/`; in code also a bare 'decision 031' (link the record instead);
// - a `docs/…` path (with an optional #anchor), in code or docs, whose file does not exist or whose anchor
//   is no heading's GitHub slug there; a relative Markdown link in docs/ or README.md likewise;
// - a decision record without `Date:` and `Status:` lines under its title, or missing from
//   docs/decisions/README.md.
// How to cite: docs/architecture.md#citing-the-docs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|css|html|sql)$/;
const SKIP = /(^|\/)(node_modules|dist|dist-ssr|data|\.tmp|test-results|playwright-report)\//;

/** Tracked and new files (not ignored ones); a plain walk where git is missing. */
function listFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split('\0').filter((f) => f && existsSync(join(root, f)));
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const name of readdirSync(join(root, dir))) {
        const rel = dir ? `${dir}/${name}` : name;
        if (name.startsWith('.') || SKIP.test(`${rel}/`)) continue;
        if (statSync(join(root, rel)).isDirectory()) walk(rel);
        else files.push(rel);
      }
    };
    walk('');
    return files;
  }
}

// Split so that this file does not match itself when other tools grep for them.
const TEAM = [
  [new RegExp('\\bDECISIONS(\\.md)?\\s*§?\\s*\\d'), "the team's decision list ('DECISIONS N')"],
  [/\bspec(?:'s)?\s+(?:sections?\s*\d|§\s*\d)/i, "the team's spec ('spec section N')"],
  [new RegExp('\\b(ARCHITECTURE|DESIGN)\\.md\\b'), 'a team file (ARCHITECTURE.md, DESIGN.md)'],
  [new RegExp('\\bCONVENTIONS(\\.md)?\\b'), 'the team file CONVENTIONS'],
];
const SHARED = /\.\.\/shared\//;
const IMPORT = /\bfrom\s+['"]|\bimport\s*\(|\brequire\s*\(/;
const BARE_RECORD = /\bdecisions?\s+\d{1,3}\b/i;
const LINKED_RECORD = /decisions\/\d{3}-[\w-]+\.md/;
const DOCS_PATH = /(?<![\w./-])docs\/[\w./-]*[\w/](?:#[\w-]+)?/g;
const MD_LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/** GitHub's heading ids (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function slugsOf(file) {
  const slugs = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n ? `${base}-${n}` : base);
  }
  return slugs;
}

const slugCache = new Map();
/** Why `target` (a path from the repository root, with an optional #anchor) does not resolve, or null. */
function unresolved(target) {
  const [path, anchor] = target.split('#');
  const abs = resolve(root, path);
  if (!abs.startsWith(root) || !existsSync(abs)) return `${path} does not exist`;
  if (anchor === undefined) return null;
  if (!abs.endsWith('.md') || statSync(abs).isDirectory()) return `${path} has no headings for #${anchor}`;
  if (!slugCache.has(abs)) slugCache.set(abs, slugsOf(abs));
  return slugCache.get(abs).has(anchor) ? null : `${path} has no heading #${anchor}`;
}

const problems = [];
const files = listFiles().filter((f) => !SKIP.test(f) && f !== self);
const isDoc = (f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md'));

for (const file of files) {
  const code = CODE.test(file);
  const doc = isDoc(file);
  if (!code && !doc) continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  let fenced = false;
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (doc && /^\s*(```|~~~)/.test(line)) fenced = !fenced;
    for (const [re, what] of TEAM) if (re.test(line)) problems.push(`${at}: cites ${what}; link docs/ instead`);
    if (SHARED.test(line) && !IMPORT.test(line))
      problems.push(`${at}: cites ../shared/, which does not ship; link docs/ instead`);
    if (code && BARE_RECORD.test(line) && !LINKED_RECORD.test(line))
      problems.push(`${at}: a bare decision number; link the record (docs/decisions/NNN-title.md)`);
    for (const m of line.matchAll(DOCS_PATH)) {
      const target = m[0].replace(/[.]+$/, '');
      const why = unresolved(target);
      if (why) problems.push(`${at}: ${target}: ${why}`);
    }
    if (doc && !fenced) {
      for (const m of line.matchAll(MD_LINK)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
        const [path, anchor] = target.split('#');
        const fromRoot = path ? relative(root, resolve(root, dirname(file), path)) : file;
        const why = unresolved(anchor === undefined ? fromRoot : `${fromRoot}#${anchor}`);
        if (why) problems.push(`${at}: link ${target}: ${why}`);
      }
    }
  });
}

// Decision records: dated, with a status, and listed in the index.
const decisionsDir = join(root, 'docs/decisions');
const index = existsSync(join(decisionsDir, 'README.md')) ? readFileSync(join(decisionsDir, 'README.md'), 'utf8') : '';
for (const name of readdirSync(decisionsDir).filter((f) => /^\d{3}-.*\.md$/.test(f))) {
  const head = readFileSync(join(decisionsDir, name), 'utf8').split('\n').slice(0, 8).join('\n');
  const at = `docs/decisions/${name}:1`;
  if (!/^Date: \d{4}-\d{2}-\d{2}\s*$/m.test(head)) problems.push(`${at}: no 'Date: YYYY-MM-DD' line under the title`);
  if (!/^Status: (accepted|superseded|proposed)\b/m.test(head)) problems.push(`${at}: no 'Status: accepted|superseded' line`);
  if (!index.includes(`(${name})`)) problems.push(`${at}: not listed in docs/decisions/README.md`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(
    `check-docs: ${problems.length} citation${problems.length === 1 ? '' : 's'} to fix (docs/architecture.md#citing-the-docs)`,
  );
  process.exit(1);
}
console.log(`check-docs: every citation resolves (${files.length} files)`);

// `npm test`: every check, in order; the last line is `N passed, N failed`.
// With PG_TEST_URL set (CI does), the API tests also run against that PostgreSQL database.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
let passed = 0;
let failed = 0;
const results = [];

function sh(cmd, args, env = {}) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: r.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

/** A step that is one check. */
function check(name, cmd, args, env) {
  console.log(`\n▶ ${name}`);
  const r = sh(cmd, args, env);
  if (r.ok) passed++;
  else failed++;
  results.push(`${r.ok ? '✓' : '✗'} ${name} (${r.seconds}s)`);
  return r.ok;
}

/** A step whose runner reports many tests in a JSON file. */
function suite(name, cmd, args, reportFile, count, env) {
  console.log(`\n▶ ${name}`);
  rmSync(reportFile, { force: true });
  const r = sh(cmd, args, env);
  let p = 0;
  let f = 0;
  if (existsSync(reportFile)) {
    try {
      [p, f] = count(JSON.parse(readFileSync(reportFile, 'utf8')));
    } catch {
      f = 1;
    }
  }
  if (!r.ok && f === 0) f = 1; // the runner failed outside any test
  if (p + f === 0) f = 1; // a suite that ran nothing is a failure
  passed += p;
  failed += f;
  results.push(`${f ? '✗' : '✓'} ${name}: ${p} passed, ${f} failed (${r.seconds}s)`);
}

const vitestCount = (j) => [
  j.numPassedTests ?? 0,
  (j.numFailedTests ?? 0) + (j.numRuntimeErrorTestSuites ?? 0) + (j.success === false && !j.numFailedTests ? 1 : 0),
];
const playwrightCount = (j) => [
  j.stats?.expected ?? 0,
  (j.stats?.unexpected ?? 0) + (j.stats?.flaky ?? 0) + (j.errors?.length ?? 0),
];

check('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
check('format (prettier --check; `npm run format` fixes it)', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']);
check('unused files, exports and dependencies (knip)', 'npx', ['knip', '--no-progress']);
check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
suite(
  'unit, component and API tests (PGlite)',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${tmp}/vitest.json`],
  `${tmp}/vitest.json`,
  vitestCount,
  { TEST_DATABASE_URL: '' },
);
if (process.env.PG_TEST_URL) {
  suite(
    'API tests (PostgreSQL)',
    'npx',
    ['vitest', 'run', '--project', 'server', '--reporter=default', '--reporter=json', `--outputFile=${tmp}/vitest-pg.json`],
    `${tmp}/vitest-pg.json`,
    vitestCount,
    { TEST_DATABASE_URL: process.env.PG_TEST_URL },
  );
}
const built = check('build', 'npm', ['run', '--silent', 'build']);
if (built) {
  check('bundle budget', 'node', ['scripts/check-bundle.mjs']);
  suite('end-to-end tests (Playwright, Chromium)', 'node', ['scripts/e2e.mjs'], `${tmp}/playwright.json`, playwrightCount);
} else {
  failed += 2;
  results.push('✗ bundle budget and end-to-end tests: not run, the build failed');
}

console.log(`\n${results.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

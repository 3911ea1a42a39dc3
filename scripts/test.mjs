// `npm test`: every check; the last line is `N passed, N failed` (docs/testing.md).
// With PG_TEST_URL set (CI does), the server's tests also run against that PostgreSQL.
//
// Independent steps run side by side, as many at once as the machine has cores (each step's `cpus`
// is what it keeps busy); a step with `after` waits for those steps. Each step's output goes to
// .tmp/steps/<id>.log and is printed when it ends: whole when it failed, its tail when it passed.
//
//   npm test                      every step
//   npm test -- server-pglite e2e these steps only (and nothing they wait for: build first if needed)
//   TEST_CPUS=1 npm test          one step at a time, in the order below
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = join(root, '.tmp');
const logs = join(tmp, 'steps');
mkdirSync(logs, { recursive: true });
const CPUS = Number(process.env.TEST_CPUS) || availableParallelism();
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const vitestCount = (j) => [
  j.numPassedTests ?? 0,
  (j.numFailedTests ?? 0) + (j.numRuntimeErrorTestSuites ?? 0) + (j.success === false && !j.numFailedTests ? 1 : 0),
];
const playwrightCount = (j) => [
  j.stats?.expected ?? 0,
  (j.stats?.unexpected ?? 0) + (j.stats?.flaky ?? 0) + (j.errors?.length ?? 0),
];
/** A vitest run whose tests are counted from its JSON report. */
const vitest = (id, args, env = {}) => ({
  cmd: 'npx',
  args: ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${tmp}/${id}.json`],
  report: `${tmp}/${id}.json`,
  count: vitestCount,
  env,
});
const npx = (...args) => ({ cmd: 'npx', args });

/**
 * The steps, longest first: the scheduler starts the first one that fits. Each is one check, or a
 * suite of tests counted from its report. Measured on 2 cores (docs/testing.md#how-long).
 */
const steps = [
  { id: 'build', name: 'build', cpus: 1, cmd: 'npm', args: ['run', '--silent', 'build'] },
  {
    id: 'server-pglite',
    name: 'server unit, API and slow tests (PGlite)',
    cpus: 1,
    ...vitest('server-pglite', ['--project', 'server'], { TEST_DATABASE_URL: '' }),
  },
  {
    id: 'e2e',
    name: 'end-to-end tests (Playwright, Chromium)',
    cpus: 1, // two browsers, mostly waiting on the server and each other
    after: ['build'],
    cmd: 'node',
    args: ['scripts/e2e.mjs'],
    report: `${tmp}/playwright.json`,
    count: playwrightCount,
  },
  process.env.PG_TEST_URL && {
    id: 'server-postgres',
    name: 'server unit, API and slow tests (PostgreSQL)',
    cpus: 1,
    ...vitest('server-postgres', ['--project', 'server'], {
      TEST_DATABASE_URL: process.env.PG_TEST_URL,
    }),
  },
  { id: 'bundle', name: 'bundle budget', cpus: 1, after: ['build'], cmd: 'node', args: ['scripts/check-bundle.mjs'] },
  {
    id: 'web',
    name: 'web and shared tests',
    cpus: 1,
    ...vitest('web', ['--project', 'web', '--project', 'shared'], { TEST_DATABASE_URL: '' }),
  },
  { id: 'typecheck', name: 'typecheck', cpus: 1, cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  { id: 'lint', name: 'lint', cpus: 1, ...npx('eslint', '.', '--max-warnings=0') },
  { id: 'knip', name: 'unused files, exports and dependencies (knip)', cpus: 1, ...npx('knip', '--no-progress') },
  {
    id: 'format',
    name: 'format (prettier --check; `npm run format` fixes it)',
    cpus: 1,
    ...npx('prettier', '--check', '.', '--log-level', 'warn'),
  },
  {
    id: 'docs',
    name: 'docs cite docs/ only and every docs/ link resolves',
    cpus: 1,
    cmd: 'node',
    args: ['scripts/check-docs.mjs'],
  },
  {
    id: 'migrations',
    name: 'drizzle-kit metadata level with schema.ts (no new migration)',
    cpus: 1,
    cmd: 'node',
    args: ['scripts/check-migrations.mjs'],
  },
].filter(Boolean);

const only = process.argv.slice(2);
const unknown = only.filter((id) => !steps.some((s) => s.id === id));
if (unknown.length) {
  console.error(`unknown step ${unknown.join(', ')}; the steps: ${steps.map((s) => s.id).join(', ')}`);
  process.exit(2);
}
const chosen = only.length ? steps.filter((s) => only.includes(s.id)) : steps;
const ids = new Set(chosen.map((s) => s.id));
// a step runs after those of its `after` that run too
for (const s of chosen) s.after = (s.after ?? []).filter((id) => ids.has(id));

let passed = 0;
let failed = 0;
const results = new Map();
const done = new Map(); // id → ok
const started = Date.now();
const clock = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;

function run(step) {
  return new Promise((resolve) => {
    console.log(`${clock()} ▶ ${step.name}`);
    if (step.report) rmSync(step.report, { force: true });
    const log = join(logs, `${step.id}.log`);
    const out = createWriteStream(log);
    const t0 = Date.now();
    const cpuFile = join(logs, `${step.id}.cpu`);
    rmSync(cpuFile, { force: true });
    // the CPU time of the step and everything it ran, where GNU time is installed
    const [cmd, args] = TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, step.cmd, ...step.args]] : [step.cmd, step.args];
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', ...step.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      let cpu = '';
      try {
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
        if (user + sys >= 0) cpu = `, ${(user + sys).toFixed(0)}s CPU`;
      } catch {
        // no GNU time
      }
      out.end(() => resolve({ ok: code === 0, seconds: ((Date.now() - t0) / 1000).toFixed(1), cpu, log }));
    });
  });
}

function record(step, r) {
  let ok = r.ok;
  let line;
  if (step.count) {
    let p = 0;
    let f = 0;
    if (existsSync(step.report)) {
      try {
        [p, f] = step.count(JSON.parse(readFileSync(step.report, 'utf8')));
      } catch {
        f = 1;
      }
    }
    if (!r.ok && f === 0) f = 1; // the runner failed outside any test
    if (p + f === 0) f = 1; // a suite that ran nothing is a failure
    passed += p;
    failed += f;
    ok = f === 0;
    line = `${ok ? '✓' : '✗'} ${step.name}: ${p} passed, ${f} failed (${r.seconds}s${r.cpu})`;
  } else {
    if (ok) passed++;
    else failed++;
    line = `${ok ? '✓' : '✗'} ${step.name} (${r.seconds}s${r.cpu})`;
  }
  const text = readFileSync(r.log, 'utf8').trimEnd();
  const lines = text.split('\n');
  const shown = ok && lines.length > 15 ? [`… (${r.log})`, ...lines.slice(-15)] : lines;
  console.log(`\n${clock()} ${line}\n${text ? `${shown.map((l) => `  ${l}`).join('\n')}\n` : ''}`);
  results.set(step.id, line);
  done.set(step.id, ok);
}

const waiting = [...chosen];
const running = new Set();
let busy = 0;
await new Promise((finish) => {
  const next = () => {
    for (const step of [...waiting]) {
      if (step.after.some((id) => !done.has(id))) continue;
      const blocked = step.after.filter((id) => !done.get(id));
      if (blocked.length) {
        waiting.splice(waiting.indexOf(step), 1);
        failed++;
        const line = `✗ ${step.name}: not run, ${blocked.join(' and ')} failed`;
        results.set(step.id, line);
        done.set(step.id, false);
        console.log(`${clock()} ${line}`);
        return next();
      }
      const cpus = Math.min(step.cpus, CPUS);
      if (busy && busy + cpus > CPUS) continue;
      waiting.splice(waiting.indexOf(step), 1);
      busy += cpus;
      running.add(step);
      run(step).then((r) => {
        busy -= cpus;
        running.delete(step);
        record(step, r);
        next();
      });
    }
    if (!waiting.length && !running.size) finish();
  };
  next();
});

for (const s of chosen) {
  if (results.has(s.id)) continue;
  failed++; // never so, but a step that did not run must not pass unseen
  results.set(s.id, `✗ ${s.name}: not run`);
}
console.log(`\n${chosen.map((s) => results.get(s.id)).join('\n')}\n(${clock().trim()} in all, ${CPUS} at once)\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

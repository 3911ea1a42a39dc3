// `npm run bench`: measures the built app served by the real server and writes docs/benchmarks.md.
// Figures from one run on one machine; compare ratios, not absolute times (the machine is shared).
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = fileURLToPath(new URL('..', import.meta.url));
const PORT = 3200;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = `${root}.tmp/bench-data`;

if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const budget = spawnSync('node', ['scripts/check-bundle.mjs'], { cwd: root, encoding: 'utf8' });

rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000',
    NODE_ENV: 'production',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.on('exit', () => server.kill());
for (let i = 0; i < 100; i++) {
  const up = await fetch(`${base}/api/health/ready`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  await sleep(200);
}

async function timeIt(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { p50: q(0.5), p95: q(0.95) };
}

const json = { 'content-type': 'application/json' };
const login = await fetch(`${base}/api/users/login`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email: 'user@spotter.test', password: 'Demo1234' }),
}).then((r) => r.json());
const api = {
  'GET /api/health': await timeIt(300, () => fetch(`${base}/api/health`).then((r) => r.arrayBuffer())),
  'GET /api/userData (token checked against the account)': await timeIt(300, () =>
    fetch(`${base}/api/userData`, { headers: { authorization: login.token } }).then((r) => r.arrayBuffer()),
  ),
  'GET / (index.html)': await timeIt(300, () => fetch(`${base}/`).then((r) => r.arrayBuffer())),
  'POST /api/users/login (Argon2id verify)': await timeIt(30, () =>
    fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'user@spotter.test', password: 'Demo1234' }),
    }).then((r) => r.arrayBuffer()),
  ),
};

async function lighthouseRuns(url, runs = 3) {
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const results = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        formFactor: 'mobile',
      });
      const c = r.lhr.categories;
      const a = r.lhr.audits;
      results.push({
        performance: Math.round(c.performance.score * 100),
        accessibility: Math.round(c.accessibility.score * 100),
        bestPractices: Math.round(c['best-practices'].score * 100),
        seo: Math.round(c.seo.score * 100),
        fcp: a['first-contentful-paint'].numericValue,
        lcp: a['largest-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
        failing: Object.values(a)
          .filter((x) => x.score !== null && x.score < 1 && x.scoreDisplayMode === 'binary')
          .map((x) => x.id),
      });
    }
  } finally {
    await chrome.kill();
  }
  results.sort((x, y) => x.performance - y.performance);
  return results[Math.floor(results.length / 2)];
}

const pages = {};
for (const path of ['/', '/trainers', '/users/login', '/users/register']) pages[path] = await lighthouseRuns(`${base}${path}`);
server.kill();

// the trainer list on PostgreSQL with 100,000 trainers (skipped without PostgreSQL)
spawnSync(process.execPath, ['bench/trainers-list.mjs', `${root}.tmp/bench-trainers.md`], { cwd: root, stdio: 'inherit' });
const listSection = existsSync(`${root}.tmp/bench-trainers.md`) ? readFileSync(`${root}.tmp/bench-trainers.md`, 'utf8') : '';

const ms = (n) => `${n.toFixed(1)} ms`;
const health = api['GET /api/health'].p50;
const md = `# Benchmarks

Written by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}: the built app served by the real
server (\`NODE_ENV=production\`, PGlite), measured from the same machine (2 cores, shared and noisy:
read the ratios, not the absolute times).

## Page weight (the budget \`npm test\` checks)
\`\`\`
${budget.stdout.trim()}
\`\`\`

## Lighthouse, mobile (median of 3 runs; Debian Chromium, simulated throttling)
| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${Object.entries(pages)
  .map(
    ([p, r]) =>
      `| \`${p}\` | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${ms(r.tbt)} | ${r.cls.toFixed(3)} |`,
  )
  .join('\n')}

Budgets (issue 2): performance ≥ 95 and accessibility 100 on \`/\`.
${Object.entries(pages)
  .map(([p, r]) => (r.failing.length ? `Audits not passed on \`${p}\`: ${r.failing.join(', ')}.` : ''))
  .filter(Boolean)
  .join('\n')}

## API latency, sequential requests over loopback
| request | p50 | p95 | p50 ÷ health p50 |
| --- | --- | --- | --- |
${Object.entries(api)
  .map(([k, v]) => `| ${k} | ${ms(v.p50)} | ${ms(v.p95)} | ${(v.p50 / health).toFixed(1)}× |`)
  .join('\n')}

Login is slow on purpose: Argon2id (19 MiB, 2 passes) is what makes a stolen hash expensive to guess.

${listSection}`;
writeFileSync(`${root}docs/benchmarks.md`, md);
console.log(md);
process.exit(0);

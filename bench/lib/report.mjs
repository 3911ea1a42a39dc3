// docs/benchmarks.md: the sections a run produces sit between marker comments
// (<!-- bench:<name>:start --> … <!-- bench:<name>:end -->) and only those are rewritten; everything
// else (chat delivery, optimisation notes) is left as it is.
import { existsSync, readFileSync } from 'node:fs';

const SECTIONS = ['run', 'weight', 'lighthouse', 'api', 'startup', 'trainers-list'];
const start = (name) => `<!-- bench:${name}:start -->`;
const end = (name) => `<!-- bench:${name}:end -->`;

const INTRO = `# Benchmarks

Written by \`npm run bench\` (bench/run.mjs): it builds, seeds, starts the built server
(\`NODE_ENV=production\`) and measures it from the same machine (2 cores, shared and noisy: read the
ratios, not the absolute times). Raw figures of each run are in \`docs/benchmarks/<date>.json\`.
Flags: \`--trainers N\` (10,000 by default), \`--duration S\` (10 s a request), \`--connections N\` (50),
\`--only api|pages|startup\` (comma-separated), \`--no-lighthouse\`, \`--no-build\`, \`--trainers-list\`
(also runs \`bench/trainers-list.mjs\` on PostgreSQL). PostgreSQL is measured too when \`DATABASE_URL\` or
\`BENCH_PG_URL\` is set (a database \`spotter_bench_api\` is created on that server and dropped after).
Only the sections between \`bench:\` marker comments are rewritten.
`;

/** Turns a document written before the markers into one with them, keeping every old section's text. */
function withMarkers(doc) {
  const parts = doc.split(/^(?=## )/m);
  const blocks = Object.fromEntries(SECTIONS.map((s) => [s, '']));
  const rest = [];
  for (const part of parts.slice(1)) {
    const heading = part.slice(3, part.indexOf('\n'));
    const name = /^Page weight/.test(heading)
      ? 'weight'
      : /^Lighthouse/.test(heading)
        ? 'lighthouse'
        : /^API/.test(heading)
          ? 'api'
          : /^Trainer list on PostgreSQL/.test(heading)
            ? 'trainers-list'
            : null;
    if (name) blocks[name] += part;
    else rest.push(part);
  }
  const block = (s) => `${start(s)}\n${blocks[s].trim() || `_Not measured yet (\`npm run bench\`)._`}\n${end(s)}\n`;
  return `${INTRO}\n${SECTIONS.map(block).join('\n')}\n${rest.join('').trim()}\n`;
}

/** The document with each section of `sections` (name → markdown) put between its markers. */
export function updateDoc(path, sections) {
  let doc = existsSync(path) ? readFileSync(path, 'utf8') : INTRO;
  if (!doc.includes(start('api'))) doc = withMarkers(doc);
  for (const [name, md] of Object.entries(sections)) {
    const re = new RegExp(`${start(name)}[^]*?${end(name)}`);
    const block = `${start(name)}\n\n${md.trim()}\n\n${end(name)}`;
    doc = re.test(doc) ? doc.replace(re, () => block) : `${doc.trimEnd()}\n\n${block}\n`;
  }
  return doc;
}

const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms` : 'n/a');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const int = (n) => Math.round(n).toLocaleString('en');

export function weightSection({ date, text, bundle }) {
  return `## Page weight (${date})

What each route downloads before it can render: \`index.html\`'s scripts and module preloads (the
same for every address), then the route's lazy chunk with everything Vite preloads with it
(\`scripts/check-bundle.mjs\`, gzip level 9). The booking dialog is the profile plus the chunk the
dialog loads when it opens. \`npm test\` checks the budget: \`/\` at most ${kb(bundle.budget.js)} of JS and
${kb(bundle.budget.css)} of CSS, and no lazily loaded chunk over ${kb(bundle.budget.lazyChunk)}.

\`\`\`text
${text.trim()}
\`\`\`

| route | initial JS | initial CSS | files | the route's own chunk |
| --- | --- | --- | --- | --- |
${bundle.routes
  .map(
    (r) =>
      `| \`${r.route}\` | ${kb(r.js)} | ${kb(r.css)} | ${r.files} | ${r.ownChunk ? `${r.ownChunk.file.replace('assets/', '')} ${kb(r.ownChunk.gzip)}` : `not found (${r.missing.join(', ')})`} |`,
  )
  .join('\n')}
`;
}

export function lighthouseSection({ date, pages, chromium, profilePath }) {
  const rows = Object.entries(pages)
    .map(([p, r]) =>
      r.error
        ? `| \`${p === profilePath ? '/trainer/profile/:id' : p}\` | every run failed: ${r.error} | | | | | | |`
        : `| \`${p === profilePath ? '/trainer/profile/:id' : p}\`${r.counted < r.runs.length ? ` (${r.counted} of ${r.runs.length} runs)` : ''} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${ms(r.tbt)} | ${r.cls.toFixed(3)} |`,
    )
    .join('\n');
  const failing = Object.entries(pages)
    .map(([p, r]) =>
      r.failing?.length ? `- \`${p === profilePath ? '/trainer/profile/:id' : p}\`: ${r.failing.join(', ')}` : '',
    )
    .filter(Boolean)
    .join('\n');
  return `## Lighthouse, mobile (${date})

Lighthouse 12, mobile preset (simulated throttling), ${chromium}; the median of 3 runs of each figure,
the audits of the median-performance run. Goals (issue 12): performance ≥ 95, accessibility 100,
best practices 100.

| page | performance | accessibility | best practices | FCP | LCP | TBT | CLS |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows}

Audits not passed (score under 0.9):
${failing || '- none'}
`;
}

const ROW_BUDGET_GROUPS = new Set(['trainer list', 'profile', 'chat', 'booking']);
const meetsBudget = (r) => r.ratio >= 0.5 && r.p99 < 50 && r.errors + r.timeouts === 0 && r.non2xx === 0;

function apiTable(api) {
  return `| request | req/s | p50 | p99 | errors | non-2xx | ÷ health | server CPU | peak RSS | goal |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${api.rows
  .map(
    (r) =>
      `| \`${r.name}\` | ${int(r.rps)} | ${r.requests ? ms(r.p50) : 'n/a'} | ${r.requests ? ms(r.p99) : 'n/a'} | ${r.errors + r.timeouts} | ${
        r.non2xx
          ? `${r.non2xx} (${Object.entries(r.statusCodes)
              .filter(([c]) => !c.startsWith('2'))
              .map(([c, n]) => `${n}× ${c}`)
              .join(', ')})`
          : 0
      } | ${r.ratio.toFixed(2)} | ${r.serverCpu.toFixed(0)} % | ${r.peakRss.toFixed(0)} MiB | ${ROW_BUDGET_GROUPS.has(r.group) ? (meetsBudget(r) ? 'met' : '**missed**') : ''} |`,
  )
  .join('\n')}`;
}

export function apiSection({ date, trainers, duration, connections, results, seeds, serverErrors }) {
  const one = (label, key) => {
    const api = results[key];
    if (!api) return `### ${label}\n\n${seeds[key]?.skipped ?? '_Not measured._'}\n`;
    const s = seeds[key];
    const missed = api.rows.filter((r) => ROW_BUDGET_GROUPS.has(r.group) && !meetsBudget(r)).length;
    const errs = serverErrors[key] ?? [];
    return `### ${label}

Seeded in ${s.seconds.toFixed(1)} s (${s.demoSeconds.toFixed(1)} s of it the migrations and demo data of \`apps/server/dist/seed.js\`): ${int(s.trainers)} trainers, ${int(s.users)} users, ${int(s.reviews)} reviews,
${int(s.messages)} messages, ${int(s.bookings)} bookings. The \`q=yoga\` search has ${int(api.searchTotal ?? 0)} results; its deep
page is page ${api.deepSearchPage}. Server RSS: ${api.idleRss.toFixed(0)} MiB idle after start, **${api.peakRss.toFixed(0)} MiB** at
its peak over the API's requests (goal: under 300 MB, that is 286 MiB)${
      api.pagesPeakRss ? `, ${api.pagesPeakRss.toFixed(0)} MiB over the rendered pages after them` : ''
    }. The machine's load average (1 min) was ${api.load[0].toFixed(1)} at the start of the
phase and ${api.load[1].toFixed(1)} at its end (2 cores: above 2, other work competed for them).
Goal missed by ${missed} of ${api.rows.filter((r) => ROW_BUDGET_GROUPS.has(r.group)).length} reads.${
      errs.length ? ` The server logged ${errs.length} error(s); the first: \`${errs[0].slice(0, 300).replace(/`/g, "'")}\`` : ''
    }

${apiTable(api)}
`;
  };
  return `## API under load (${date})

\`bench/api.mjs\`: [autocannon](https://github.com/mcollina/autocannon), ${connections} connections for ${duration} s
per request, one request after another against one server process (\`NODE_ENV=production\`), with
${int(trainers)} seeded trainers; client and server share the 2-core machine. Ids, tokens and log-ins vary
from request to request (trainers at random; 200 users' and trainers' signed tokens; 2,000 accounts
logging in, Argon2id). **÷ health**: requests per second over those of \`GET /api/health\` in the same
run (the ceiling of this stack on this machine; the mean of its first and last runs, as the load of
the machine drifts). Between requests the bench waits for the server to be idle again. **server CPU**: of one core. **Goal** (issue 12): the
list, profile, chat and booking reads at least 0.5 of health, p99 under 50 ms, no errors. The two
pages are a visitor's first request, rendered on the server ([decision 031](decisions/031-server-rendered-first-page.md)), brotli; they are not
under the goal. Log-in is slow on purpose (Argon2id, 12 MiB, 3 passes).

${one('PGlite', 'pglite')}
${one('PostgreSQL', 'postgres')}`;
}

export function startupSection({ date, trainers, runs }) {
  const s = (x) => (x === null ? 'timed out' : `${(x / 1000).toFixed(2)} s`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  return `## Start-up (${date})

From spawning the command to the first 200 of \`GET /api/health/ready\` (polled every 25 ms), on an
existing PGlite data directory with ${int(trainers)} seeded trainers; each run stopped with SIGTERM
before the next. Goal (issue 12): under 5 s.

| command | runs | median |
| --- | --- | --- |
${runs
  .map((r) =>
    r.skipped
      ? `| \`${r.command}\` | not run: ${r.skipped} | |`
      : `| \`${r.command}\` | ${r.times.map(s).join(', ')} | ${r.times.includes(null) ? 'n/a' : s(median(r.times))} |`,
  )
  .join('\n')}
`;
}

export function runSection({ date, time, machine, flags }) {
  return `Last run: ${date} ${time} UTC, \`${flags}\`; ${machine}.`;
}

// Lighthouse 12, mobile preset (simulated throttling), in Debian's Chromium: the median of 3 runs a page.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** The audits of the measured categories that did not pass (score under 0.9), by id. */
const failingAudits = (lhr) => {
  const counted = new Set(Object.values(lhr.categories).flatMap((c) => c.auditRefs.map((ref) => ref.id)));
  return Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && counted.has(a.id))
    .filter((a) => !['informative', 'notApplicable', 'manual', 'error'].includes(a.scoreDisplayMode))
    .map((a) => a.id)
    .sort();
};

/** Each path of `base`, `runs` times; each figure is the median of its runs, the audits those of the median-performance run. */
export async function lighthousePages(base, paths, { runs = 3, log = console.log, chromePath = '/usr/bin/chromium' } = {}) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const pages = {};
  try {
    for (const path of paths) {
      const results = [];
      for (let i = 0; i < runs; i++) {
        const r = await lighthouse(`${base}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          formFactor: 'mobile',
        });
        const c = r.lhr.categories;
        const a = r.lhr.audits;
        const metric = (id) => a[id]?.numericValue;
        const error =
          r.lhr.runtimeError?.message ??
          ['largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift']
            .map((id) => a[id]?.errorMessage)
            .find(Boolean);
        results.push({
          performance: Math.round((c.performance.score ?? 0) * 100),
          accessibility: Math.round((c.accessibility.score ?? 0) * 100),
          bestPractices: Math.round((c['best-practices'].score ?? 0) * 100),
          fcp: metric('first-contentful-paint'),
          lcp: metric('largest-contentful-paint'),
          tbt: metric('total-blocking-time'),
          cls: metric('cumulative-layout-shift'),
          failing: failingAudits(r.lhr),
          // what the console and the issues panel said, for the JSON (the report lists only the audit ids)
          console: (a['errors-in-console']?.details?.items ?? [])
            .slice(0, 5)
            .map((x) => `${x.source ?? ''} ${x.description ?? ''} ${x.sourceLocation?.url ?? x.url ?? ''}`.trim()),
          issues: (a['inspector-issues']?.details?.items ?? [])
            .slice(0, 5)
            .map((x) => x.issueType ?? JSON.stringify(x).slice(0, 200)),
          error,
        });
        if (error) log(`  ${path}: run ${i + 1} failed: ${error}`);
      }
      const ok = results.filter((r) => !r.error);
      if (!ok.length) {
        pages[path] = { error: results[0].error, runs: results };
        continue;
      }
      const byPerformance = [...ok].sort((x, y) => x.performance - y.performance);
      const m = (k) => median(ok.map((r) => r[k]));
      pages[path] = {
        performance: m('performance'),
        accessibility: m('accessibility'),
        bestPractices: m('bestPractices'),
        fcp: m('fcp'),
        lcp: m('lcp'),
        tbt: m('tbt'),
        cls: m('cls'),
        failing: byPerformance[Math.floor((byPerformance.length - 1) / 2)].failing,
        counted: ok.length,
        runs: results,
      };
      const p = pages[path];
      log(
        `  ${path}: performance ${p.performance}, accessibility ${p.accessibility}, best practices ${p.bestPractices}, LCP ${p.lcp.toFixed(0)} ms, TBT ${p.tbt.toFixed(0)} ms, CLS ${p.cls.toFixed(3)}`,
      );
    }
  } finally {
    await chrome.kill();
  }
  return pages;
}

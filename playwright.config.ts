import { dirname } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
/**
 * The operator the console spec signs in as (e2e/console.spec.ts), and the file the command line's
 * welcome link is written to. Operators are made on the command line only, and on PGlite it refuses
 * while the server holds the data folder (docs/product.md#the-operator-console): so it runs as an
 * operator would, on the fresh data folder before the server starts. The workers read the same env.
 */
process.env.E2E_OPERATOR_EMAIL ??= 'console-operator@spotter.test';
process.env.E2E_OPERATOR_LINK ??= `${E2E_DATA_DIR}-operator-link.txt`;
/** A second operator for e2e/console-journey.spec.ts: each welcome link is used once. */
process.env.E2E_JOURNEY_OPERATOR_EMAIL ??= 'console-journey@spotter.test';
process.env.E2E_JOURNEY_OPERATOR_LINK ??= `${E2E_DATA_DIR}-journey-operator-link.txt`;
const { E2E_OPERATOR_EMAIL, E2E_OPERATOR_LINK, E2E_JOURNEY_OPERATOR_EMAIL, E2E_JOURNEY_OPERATOR_LINK } = process.env;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? '.tmp/playwright.json' }]],
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    // toasts and dialogs appear and leave without fading, so the axe check of each page never
    // measures the contrast of an element halfway through a transition
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command:
      `rm -rf ${E2E_DATA_DIR} ${E2E_OPERATOR_LINK} ${E2E_JOURNEY_OPERATOR_LINK} && mkdir -p ${dirname(E2E_OPERATOR_LINK!)} && ` +
      `mkdir -p ${dirname(E2E_JOURNEY_OPERATOR_LINK!)} && ` +
      `node scripts/operator.mjs add --email ${E2E_OPERATOR_EMAIL} > ${E2E_OPERATOR_LINK} && ` +
      `node scripts/operator.mjs add --email ${E2E_JOURNEY_OPERATOR_EMAIL} > ${E2E_JOURNEY_OPERATOR_LINK} && ` +
      'node apps/server/dist/main.js',
    url: `http://127.0.0.1:${PORT}/api/health/ready`,
    // the command line (tsx, migrations) runs before the server starts
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      ...(process.env as Record<string, string>),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '200',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    },
  },
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { lockDataDir } from './lib/data-dir-lock';
import { checkLedger } from './modules/money/ledger-check';
import { createPaymentProviders } from './modules/money/providers/payment-providers';

/**
 * `npm run ledger -- check` (scripts/ledger.mjs): reconciles the ledger with the payments, the
 * refunds and, when PayPal is configured, with PayPal (docs/decisions/042-money-ledger.md); prints
 * each difference and exits 0 when there is none, 1 otherwise. PGlite (DATA_DIR) has one user at a
 * time: the server must be stopped. On PostgreSQL (DATABASE_URL) it runs beside the servers.
 */
const USAGE = 'Usage: npm run ledger -- check';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** What the PayPal adapter logs (a timeout, an unreachable API) goes to stderr as a line. */
const consoleLog = {
  level: 'warn',
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  warn: (obj: unknown, msg?: string) => console.error(msg ?? String(obj)),
  error: (obj: unknown, msg?: string) => console.error(msg ?? String(obj)),
  fatal: (obj: unknown, msg?: string) => console.error(msg ?? String(obj)),
  child: () => consoleLog,
} as unknown as FastifyBaseLogger;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'check' || rest.length) fail(USAGE);

  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  let providers;
  try {
    ({ providers } = createPaymentProviders(config.paypal, consoleLog));
  } catch (err) {
    fail((err as Error).message); // PAYPAL_CLIENT_ID without its secret
  }
  let unlock = () => undefined as void;
  if (!config.databaseUrl) {
    if (!existsSync(join(config.dataDir, 'db', 'PG_VERSION')))
      fail(`There is no database in ${join(config.dataDir, 'db')} to check.`);
    try {
      unlock = lockDataDir(config.dataDir);
    } catch (err) {
      fail(
        `${(err as Error).message}\nPGlite has one user at a time: stop the server, run npm run ledger -- check, then start it again.`,
      );
    }
  }
  try {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    try {
      const report = await checkLedger({ db: database.db, providers });
      const { transactions, payments, ordersAskedOfProviders } = report.checked;
      const asked = ordersAskedOfProviders ? `, ${ordersAskedOfProviders} orders asked of PayPal` : '';
      const looked = `${transactions} ledger transactions, ${payments} payments${asked}`;
      if (report.ok) {
        console.log(`The ledger balances and matches the payments (${looked}).`);
      } else {
        console.log(`${report.differences.length} difference${report.differences.length === 1 ? '' : 's'} (${looked}):`);
        for (const d of report.differences) console.log(`- ${d.message}`);
        process.exitCode = 1;
      }
    } finally {
      await database.close();
    }
  } catch (err) {
    unlock();
    if ((err as { cause?: { code?: string } }).cause?.code === '42P01')
      fail('The database has no ledger yet: start the server once (it migrates the database), then check again.');
    throw err;
  }
  unlock();
}

await main();

import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { DEMO_LOGINS, seedIfEmpty } from './db/seed';
import { lockDataDir } from './lib/data-dir-lock';
import { keepDataDirPrivate } from './lib/private-dir';

/**
 * The longest one statement may run on PostgreSQL while serving: a database that hangs fails the
 * request (503 DATABASE_UNAVAILABLE) instead of holding it and its connection.
 */
const STATEMENT_TIMEOUT_MS = 15_000;

async function main() {
  // before anything is written: the database, the outbox and the secret are the owner's alone
  process.umask(0o077);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  config.webDist ??= fileURLToPath(new URL('../../web/dist', import.meta.url));

  if (config.databaseUrl) keepDataDirPrivate(config.dataDir, { create: false });
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const open = () => openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
  let database = await open();
  const applied = await migrate(database);
  const seeded = await seedIfEmpty(database.db);
  if (seeded && database.kind === 'pglite') {
    // Seeding grew PGlite's WebAssembly memory to about 400 MB, which it never gives back; the
    // server continues on a fresh instance (about 150 MB) (docs/decisions/027-fresh-pglite-after-seeding.md).
    await database.close();
    database = await open();
    // Free the old instance now: an idle server may not collect it for hours. (`--expose-gc` set at
    // run time reaches new contexts only, hence the one-off context.)
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  }

  const app = await buildApp({ config, database });
  if (database.kind === 'pglite') {
    // PGlite has no autovacuum (docs/architecture.md#the-database-and-pitfalls-measured-on-it): keep statistics and free space
    // fresh ourselves
    const vacuum = setInterval(
      () => {
        database.db.execute(sql`vacuum analyze`).catch((err) => app.log.warn({ err }, 'vacuum failed'));
      },
      6 * 60 * 60 * 1000,
    );
    vacuum.unref();
  }
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  if (seeded) app.log.info('demo data seeded');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    // A keep-alive connection whose request was in flight goes idle after close() reaped the idle
    // ones, and would then hold the exit for the whole keep-alive timeout (72 s): reap until done.
    const reapIdle = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    let code = 0;
    try {
      await app.close();
      await database.close();
    } catch (err) {
      // the data dir is still unlocked below; the supervisor sees a failed stop
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      clearInterval(reapIdle);
      unlock();
      clearTimeout(force);
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // the bound port, which differs from config.port when that is 0
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host}:${port}`;
  const logins = DEMO_LOGINS.map((l) => `  ${l.role.padEnd(8)} ${l.email} / ${l.password}`).join('\n');
  console.log(
    `\nSpotter is running at ${url}\nDatabase: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/db` : 'PostgreSQL'}\nDemo logins:\n${logins}\n`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

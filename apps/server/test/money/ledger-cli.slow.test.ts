import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { payments } from '../../src/db/schema';
import { killServer, newDataDir, root, startServer, type ServerProcess } from '../faults/server-process';
import { buildTestApp } from '../helper';
import { paidBooking, refundInFull } from './ledger-fixtures';

// `npm run ledger -- check` as a person runs it (scripts/ledger.mjs): exit 0 and one line when the
// ledger is reconciled, exit 1 and each difference in words otherwise; on PGlite only with the
// server stopped (docs/decisions/042-money-ledger.md).

/** Runs the script on a data folder or a PostgreSQL database; answers its exit code and what it printed. */
function ledgerCheck(db: { dataDir: string; databaseUrl?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: db.dataDir };
  delete env.PAYPAL_CLIENT_ID; // the demo provider: nothing to ask at run time
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['scripts/ledger.mjs', 'check'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** Opens the data folder's PGlite in this process (nothing else has it open), runs `fn`, closes it. */
async function withPglite<T>(dataDir: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('npm run ledger -- check', () => {
  it(
    'PGlite: refused while the server runs; with it stopped, exit 0, then 1 naming the order changed behind its back',
    { timeout: 180_000 },
    async () => {
      const dataDir = newDataDir('ledger');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      let server: ServerProcess | undefined = await startServer({ dataDir });
      cleanup.push(() => killServer(server));

      const refused = await ledgerCheck({ dataDir });
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain(`is using ${dataDir}`);
      expect(refused.output).toContain('stop the server, run npm run ledger -- check, then start it again');

      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      server = undefined;

      const paid = await withPglite(dataDir, async (database) => {
        await migrate(database);
        const p = await paidBooking(database.db, { amountCents: 15000, feeCents: 1500 });
        await refundInFull(database.db, await paidBooking(database.db, { amountCents: 20000, feeCents: 2000 }));
        return p;
      });
      const clean = await ledgerCheck({ dataDir });
      expect(clean.output.trim()).toBe('The ledger balances and matches the payments (3 ledger transactions, 2 payments).');
      expect(clean.code).toBe(0);
      // it let go of the data folder: the server may start again
      expect(existsSync(join(dataDir, 'server.pid'))).toBe(false);

      await withPglite(dataDir, (database) =>
        database.db.update(payments).set({ amountCents: 1, feeCents: 0 }).where(eq(payments.providerOrderId, paid.orderId)),
      );
      const tampered = await ledgerCheck({ dataDir });
      expect(tampered.code, tampered.output).toBe(1);
      expect(tampered.output.trim().split('\n')).toEqual([
        '1 difference (3 ledger transactions, 2 payments):',
        `- Paid on order ${paid.orderId} (demo), booking ${paid.bookingId}: the payment says 0.01 USD, so 0.01 USD kept, but the ledger says 150.00 USD.`,
      ]);
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: runs while a server uses the database; exit 0, then 1 after a payment is changed',
    { timeout: 120_000 },
    async () => {
      const dataDir = newDataDir('ledger-pg');
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const t = await buildTestApp(); // the file's PostgreSQL database, served by this app meanwhile
      cleanup.push(() => t.close());
      const databaseUrl = process.env.TEST_DATABASE_URL!;
      const p = await paidBooking(t.database.db);
      const clean = await ledgerCheck({ dataDir, databaseUrl });
      expect(clean.code, clean.output).toBe(0);
      expect(clean.output).toContain('The ledger balances and matches the payments');

      await t.database.db.update(payments).set({ amountCents: 1, feeCents: 0 }).where(eq(payments.providerOrderId, p.orderId));
      const tampered = await ledgerCheck({ dataDir, databaseUrl });
      expect(tampered.code, tampered.output).toBe(1);
      expect(tampered.output).toContain(`- Paid on order ${p.orderId} (demo), booking ${p.bookingId}`);
      // the server kept serving
      expect((await t.app.inject('/api/health/ready')).statusCode).toBe(200);
    },
  );
});

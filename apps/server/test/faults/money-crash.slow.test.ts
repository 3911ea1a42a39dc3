import { rmSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { bookings, ledgerTransactions, payments, payouts, refunds } from '../../src/db/schema';
import { createFreshPgDatabase } from '../helper';
import { api, demoLogin, killServer, newDataDir, startServer, waitFor, type ServerProcess } from './server-process';

const ALL_HOURS = Array.from({ length: 24 }, (_, h) => h);
const HOUR = 60 * 60_000;
const MEMBERS = ['user@spotter.test', 'member01@spotter.test', 'member02@spotter.test', 'member03@spotter.test'];

/**
 * Users paying for sessions and cancelling every other one (refunded: more than 24 h ahead) with the
 * demo provider, until the server stops answering. Only what was answered 2xx counts.
 */
async function streamMoney(base: string) {
  const trainer = await demoLogin(base, 'trainer', 'trainer@spotter.test');
  const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: ALL_HOURS }));
  const set = await api(base, '/api/trainer/availability', {
    method: 'PUT',
    token: trainer.token,
    body: { timeZone: 'UTC', weekly, minNoticeHours: 1, bufferMinutes: 0 },
  });
  if (set.status !== 200) throw new Error(`availability: ${set.status} ${JSON.stringify(set.body)}`);
  const address = await api(base, '/api/trainer/payout', {
    method: 'PUT',
    token: trainer.token,
    body: { email: 'trainer.payouts@example.com' },
  });
  if (address.status !== 200) throw new Error(`payout address: ${address.status}`);
  const users = [];
  for (const email of MEMBERS) users.push(await demoLogin(base, 'user', email));
  const acked = { paid: [] as string[], refunded: [] as string[], paidOut: [] as string[] };
  /** The server's time (its test clock moves): slots are chosen from it. */
  let serverNow = Date.now();
  const slotAt = (n: number) => new Date(Math.ceil((serverNow + (48 + n) * HOUR) / HOUR) * HOUR).toISOString();
  const serverErrors: string[] = [];
  let stopped = false;
  let slot = 0;
  const step = async (token: string, path: string, body?: object) => {
    const res = await api<Record<string, unknown>>(base, path, { method: 'POST', token, body });
    if (res.status >= 500) serverErrors.push(`${res.status} ${path}`);
    return res;
  };
  const writer = async (token: string) => {
    let failures = 0;
    for (let i = 0; !stopped; i++) {
      try {
        const held = await step(token, '/api/bookings', { trainerId: trainer.id, startsAt: slotAt(slot++) });
        if (held.status !== 201) continue;
        const bookingId = (held.body.booking as { _id: string })._id;
        const order = await step(token, '/api/orders', { bookingId });
        if (order.status !== 200) continue;
        const paid = await step(token, `/api/orders/${order.body.id as string}/capture`);
        if (paid.status !== 200) continue;
        acked.paid.push(bookingId);
        if (i % 2 === 0) {
          const cancelled = await step(token, `/api/bookings/${bookingId}/cancel`);
          if (cancelled.status === 200) acked.refunded.push(bookingId);
        }
      } catch {
        // the server is gone: whatever got no answer was never acknowledged
        if (++failures > 3 || stopped) return;
      }
    }
  };
  /** Time passes: three days at a time, the jobs due run (shares payable, payouts paid); paid payouts are acknowledged. */
  const clockMover = async () => {
    let failures = 0;
    while (!stopped) {
      try {
        const moved = await step(trainer.token, '/api/test/clock', { advanceMs: 3 * 24 * HOUR });
        if (moved.status === 200) serverNow = Date.parse(moved.body.now as string);
        const list = await api<{ payouts: Array<{ _id: string; status: string }> }>(base, '/api/payouts', {
          token: trainer.token,
        });
        if (list.status === 200)
          for (const p of list.body.payouts) if (p.status === 'paid' && !acked.paidOut.includes(p._id)) acked.paidOut.push(p._id);
      } catch {
        if (++failures > 3 || stopped) return;
      }
    }
  };
  const done = Promise.all([...users.map((u) => writer(u.token)), clockMover()]);
  return {
    acked,
    serverErrors,
    done,
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

/** SIGKILL during the stream (time passing on the test clock), a restart, then every acknowledged movement is in a ledger that balances. */
async function crashAndCheck(databaseUrl: string | undefined) {
  const dataDir = newDataDir('money-crash');
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ dataDir, databaseUrl });
    const stream = await streamMoney(server.base);
    await waitFor(
      () => stream.acked.paid.length >= 6 && stream.acked.refunded.length >= 2,
      90_000,
      'acknowledged payments and refunds',
    );
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await stream.stop();
    expect(stream.serverErrors).toEqual([]);
    const acked = { paid: [...stream.acked.paid], refunded: [...stream.acked.refunded], paidOut: [...stream.acked.paidOut] };

    // a restart finishes what was under way (the jobs), then stops cleanly so the database can be read
    server = await startServer({ dataDir, databaseUrl, env: { TEST_CLOCK: '1' } });
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const database = await openDatabase({ url: databaseUrl, dataDir });
    try {
      const db = database.db;
      // every acknowledged payment: its booking paid, its payment and its ledger transaction
      const paidRows = await db.select().from(payments).where(inArray(payments.bookingId, acked.paid));
      expect(paidRows.map((p) => p.bookingId).sort()).toEqual([...acked.paid].sort());
      const paymentTx = await db
        .select({ bookingId: ledgerTransactions.bookingId })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.kind, 'payment'), inArray(ledgerTransactions.bookingId, acked.paid)));
      expect(paymentTx.map((t) => t.bookingId).sort()).toEqual([...acked.paid].sort());
      // every acknowledged refund: the booking refunded, the refund completed, its ledger transaction
      const refundedBookings = await db
        .select({ status: bookings.status })
        .from(bookings)
        .where(inArray(bookings.id, acked.refunded));
      expect(refundedBookings.every((b) => b.status === 'refunded')).toBe(true);
      const refundRows = await db.select().from(refunds).where(inArray(refunds.bookingId, acked.refunded));
      expect(refundRows.filter((r) => r.status === 'completed')).toHaveLength(acked.refunded.length);
      const refundTx = await db
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.kind, 'refund'), inArray(ledgerTransactions.bookingId, acked.refunded)));
      expect(refundTx).toHaveLength(acked.refunded.length);
      // every payout acknowledged as paid: paid, with its ledger transaction
      const paidOutRows = await db.select().from(payouts).where(inArray(payouts.id, acked.paidOut));
      expect(paidOutRows.map((p) => [p.id, p.status]).sort()).toEqual(acked.paidOut.map((id) => [id, 'paid']).sort());
      const paidTx = await db
        .select({ id: ledgerTransactions.payoutId })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.kind, 'payout-paid'), inArray(ledgerTransactions.payoutId, acked.paidOut)));
      expect(paidTx).toHaveLength(acked.paidOut.length);
      // the whole ledger balances, per transaction and currency, only world accounts are below zero,
      // and every payment and refund stored agrees with it
      expect((await checkLedger({ db })).differences).toEqual([]);
    } finally {
      await database.close();
    }
    return acked;
  } finally {
    killServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a crash (SIGKILL) during payments, refunds and payouts', () => {
  it(
    'PGlite: every acknowledged payment, refund and payout is in a ledger that balances after a restart',
    { timeout: 180_000 },
    async () => {
      const acked = await crashAndCheck(undefined);
      expect(acked.paid.length).toBeGreaterThanOrEqual(6);
    },
  );

  const pgIt = process.env.TEST_DATABASE_URL ? it : it.skip;
  const fresh: Array<{ drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const f of fresh) await f.drop();
  });
  pgIt(
    'PostgreSQL: every acknowledged payment, refund and payout is in a ledger that balances after a restart',
    { timeout: 180_000 },
    async () => {
      const pg = (await createFreshPgDatabase())!;
      fresh.push(pg);
      const acked = await crashAndCheck(pg.url);
      expect(acked.refunded.length).toBeGreaterThanOrEqual(2);
    },
  );
});

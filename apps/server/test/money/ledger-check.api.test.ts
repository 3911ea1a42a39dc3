import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { jobs, paymentEvents, payments, refunds } from '../../src/db/schema';
import { checkLedger, ledgerCheckJob, runLedgerCheck, scheduleDailyLedgerCheck } from '../../src/modules/money/ledger-check';
import { account, post } from '../../src/modules/money/ledger.repo';
import type { PaymentProvider, ProviderOrderState } from '../../src/modules/money/providers/payment-provider';
import { createJobRunner } from '../../src/platform/jobs';
import { registerMetrics } from '../../src/plugins/metrics';
import { useTestApp } from '../helper';
import { paidBooking, refundInFull } from './ledger-fixtures';

// `npm run ledger -- check` and the daily job (docs/decisions/042-money-ledger.md): what they find
// when a row is changed behind the ledger's back. The tests share the file's database: each puts
// back what it broke, so the next starts from a reconciled one.
const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;
/** What puts back a test's tampering, run after it even when it failed, so the next test starts reconciled. */
const repairs: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const repair of repairs.splice(0)) await repair();
});
const repairing = <T>(repair: () => Promise<T>) => (repairs.push(repair), repair);

const check = (opts: Partial<Parameters<typeof checkLedger>[0]> = {}) => checkLedger({ db, ...opts });
const about = (report: Awaited<ReturnType<typeof checkLedger>>, orderId: string) =>
  report.differences.filter((d) => d.orderId === orderId || d.message.includes(orderId));

/**
 * A provider that keeps orders, as PayPal does: answers getOrder from `orders` (what the test says
 * PayPal holds). PayPal's own adapter is being written on another branch; the check needs only this.
 */
function providerHolding(orders: Map<string, Omit<ProviderOrderState, 'raw'> | Error>): PaymentProvider {
  const unused = () => Promise.reject(new Error('not used by the check'));
  return {
    name: 'paypal',
    createOrder: unused,
    captureOrder: unused,
    refundCapture: unused,
    createPayoutBatch: unused,
    getPayoutBatch: unused,
    cancelPayoutItem: unused,
    verifyWebhook: () => Promise.resolve(false),
    async getOrder({ orderId }) {
      const o = orders.get(orderId);
      if (!o) throw new Error(`RESOURCE_NOT_FOUND: order ${orderId}`);
      if (o instanceof Error) throw o;
      return { ...o, raw: o };
    },
  };
}

describe('checkLedger', () => {
  it('a reconciled database is ok: payments, a refunded one, nothing else', async () => {
    expect(await check()).toMatchObject({ ok: true, differences: [] });
    await paidBooking(db);
    await refundInFull(db, await paidBooking(db, { amountCents: 20000, feeCents: 2000 }));
    const report = await check();
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked.payments).toBe(2);
  });

  it("a payment whose amount was changed behind the ledger's back is a difference naming its order", async () => {
    const p = await paidBooking(db, { amountCents: 15000 });
    const restore = repairing(() =>
      db.update(payments).set({ amountCents: 15000, feeCents: 1500 }).where(eq(payments.providerOrderId, p.orderId)),
    );
    await db.update(payments).set({ amountCents: 1, feeCents: 0 }).where(eq(payments.providerOrderId, p.orderId));
    const report = await check();
    expect(report.ok).toBe(false);
    const found = about(report, p.orderId);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'payment', provider: 'demo', orderId: p.orderId, bookingId: p.bookingId });
    expect(found[0].message).toBe(
      `Paid on order ${p.orderId} (demo), booking ${p.bookingId}: the payment says 0.01 USD, so 0.01 USD kept, but the ledger says 150.00 USD.`,
    );
    await restore();
    expect(await check()).toMatchObject({ ok: true });
  });

  it('a payment marked refunded while the ledger still holds its money is a difference', async () => {
    const p = await paidBooking(db);
    const restore = repairing(() =>
      db.update(payments).set({ status: 'completed' }).where(eq(payments.providerOrderId, p.orderId)),
    );
    await db.update(payments).set({ status: 'refunded' }).where(eq(payments.providerOrderId, p.orderId));
    const found = about(await check(), p.orderId);
    expect(found.map((d) => d.kind)).toEqual(['payment']);
    expect(found[0].message).toContain('the payment was refunded (nothing kept), but the ledger says 150.00 USD');
    await restore();
    expect(await check()).toMatchObject({ ok: true });
  });

  it('a completed refund with no refund in the ledger is a difference', async () => {
    const p = await paidBooking(db);
    const key = `full:${randomUUID()}`;
    const restore = repairing(() => db.delete(refunds).where(eq(refunds.key, key)));
    await db.insert(refunds).values({
      key,
      bookingId: p.bookingId,
      provider: 'demo',
      providerOrderId: p.orderId,
      captureId: p.captureId,
      amountCents: 5000,
      currency: 'USD',
      status: 'completed',
      reason: 'cancelled',
    });
    const found = about(await check(), p.orderId);
    expect(found.map((d) => d.kind).sort()).toEqual(['payment', 'refund']);
    expect(found.find((d) => d.kind === 'refund')!.message).toContain('a completed refund is missing from the ledger');
    await restore();
    expect(await check()).toMatchObject({ ok: true });
  });

  it("a refund still 'requested' after 15 minutes is listed as unknown; a fresh one is not", async () => {
    const p = await paidBooking(db);
    const values = {
      bookingId: p.bookingId,
      provider: 'demo' as const,
      providerOrderId: p.orderId,
      captureId: p.captureId,
      amountCents: p.amountCents,
      currency: 'USD',
      status: 'requested' as const,
      reason: 'cancelled',
    };
    const restore = repairing(() => db.update(refunds).set({ status: 'failed' }).where(eq(refunds.providerOrderId, p.orderId)));
    await db.insert(refunds).values({ ...values, key: `fresh:${p.bookingId}` });
    expect(about(await check(), p.orderId)).toEqual([]);
    await db.insert(refunds).values({ ...values, key: `stuck:${p.bookingId}`, createdAt: new Date(Date.now() - HOUR) });
    const found = about(await check(), p.orderId);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'refund-unknown', key: `stuck:${p.bookingId}` });
    expect(found[0].message).toContain('its outcome is not known');
    await restore();
    expect(await check()).toMatchObject({ ok: true });
  });

  it("a capture left unknown is listed until a 'capture-settled' event follows it", async () => {
    const orderId = `ORDER-${randomUUID()}`;
    const settle = repairing(() =>
      db.insert(paymentEvents).values({ kind: 'capture-settled', provider: 'paypal', providerOrderId: orderId }),
    );
    await db.insert(paymentEvents).values({
      kind: 'capture-unknown',
      provider: 'paypal',
      providerOrderId: orderId,
      createdAt: new Date(Date.now() - HOUR),
    });
    const found = about(await check(), orderId);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'capture-unknown', provider: 'paypal', orderId });
    await settle();
    expect(await check()).toMatchObject({ ok: true });
  });

  it('money in suspense is listed until it is refunded', async () => {
    const orderId = `ORDER-${randomUUID()}`;
    const suspense = account.suspense('demo', orderId);
    const move = (key: string, kind: 'unplaced' | 'refund', cents: number) =>
      db.transaction((tx) =>
        post(tx, {
          key,
          kind,
          provider: 'demo',
          providerOrderId: orderId,
          entries: [
            { account: account.world('demo'), amountCents: -cents, currency: 'JPY' },
            { account: suspense, amountCents: cents, currency: 'JPY' },
          ],
        }),
      );
    const refund = repairing(async () => {
      const [r] = await db
        .insert(refunds)
        .values({
          key: `suspense:${orderId}`,
          provider: 'demo',
          providerOrderId: orderId,
          captureId: 'C',
          amountCents: 15000,
          currency: 'JPY',
          status: 'completed',
          reason: 'unplaced',
        })
        .onConflictDoNothing()
        .returning({ id: refunds.id });
      if (r) await move(`refund:${r.id}`, 'refund', -15000);
    });
    await move(`unplaced:${orderId}`, 'unplaced', 15000);
    const found = about(await check(), orderId);
    expect(found).toMatchObject([{ kind: 'suspense', account: suspense }]);
    expect(found[0].message).toBe(`150.00 JPY captured is placed on no booking and not refunded (${suspense}).`);
    // refunded from suspense, with its refunds row
    await refund();
    expect(await check()).toMatchObject({ ok: true });
  });

  it("compares each order with what the provider holds: captured less refunded against the ledger's net", async () => {
    const paid = await paidBooking(db, { provider: 'paypal', amountCents: 15000 });
    const refunded = await paidBooking(db, { provider: 'paypal', amountCents: 20000, feeCents: 2000 });
    await refundInFull(db, refunded);
    const cheap = await paidBooking(db, { provider: 'paypal', amountCents: 15000 });
    const yen = await paidBooking(db, { provider: 'paypal', amountCents: 15000 });
    const down = await paidBooking(db, { provider: 'paypal', amountCents: 15000 });
    const usd = (amountCents: number, refundedCents = 0, status = 'COMPLETED') => ({
      status: 'COMPLETED',
      amountCents: 15000,
      currency: 'USD',
      capture: { id: 'C', status, amountCents, currency: 'USD' },
      refundedCents,
    });
    const orders = new Map<string, Omit<ProviderOrderState, 'raw'> | Error>([
      [paid.orderId, { id: paid.orderId, ...usd(15000) }],
      [refunded.orderId, { id: refunded.orderId, ...usd(20000, 20000, 'REFUNDED') }],
      // the red team's $0.01 capture and its 150 JPY one
      [cheap.orderId, { id: cheap.orderId, ...usd(1) }],
      [
        yen.orderId,
        {
          id: yen.orderId,
          status: 'COMPLETED',
          capture: { id: 'C', status: 'COMPLETED', amountCents: 15000, currency: 'JPY' },
          refundedCents: 0,
        },
      ],
      [down.orderId, new Error('PayPal did not answer in time')],
    ]);
    const demoAsked: string[] = [];
    const demo = { ...providerHolding(new Map()), name: 'demo' as const };
    demo.getOrder = async ({ orderId }) => {
      demoAsked.push(orderId);
      throw new Error('the demo keeps no orders');
    };
    const report = await check({ providers: { paypal: providerHolding(orders), demo } });
    expect(demoAsked).toEqual([]);
    expect(report.checked.ordersAskedOfProviders).toBe(5);
    expect(about(report, paid.orderId)).toEqual([]);
    expect(about(report, refunded.orderId)).toEqual([]);
    expect(about(report, cheap.orderId)).toMatchObject([
      {
        kind: 'provider',
        message: `paypal says order ${cheap.orderId} was paid 0.01 USD (captured 0.01 USD less 0.00 USD refunded, capture COMPLETED), but the ledger says 150.00 USD.`,
      },
    ]);
    expect(
      about(report, yen.orderId)
        .map((d) => d.message)
        .sort(),
    ).toEqual([
      `paypal says order ${yen.orderId} was paid 0.00 USD (captured 0.00 USD less 0.00 USD refunded, capture COMPLETED), but the ledger says 150.00 USD.`,
      `paypal says order ${yen.orderId} was paid 150.00 JPY (captured 150.00 JPY less 0.00 JPY refunded, capture COMPLETED), but the ledger says 0.00 JPY.`,
    ]);
    expect(about(report, down.orderId)).toMatchObject([
      {
        kind: 'provider-unreachable',
        message: `Could not ask paypal about order ${down.orderId} (paypal): PayPal did not answer in time.`,
      },
    ]);
    expect(report.differences).toHaveLength(4);
    // only the orders since a date are asked when told
    const later = await check({ providers: { paypal: providerHolding(orders) }, providerSince: new Date(Date.now() + HOUR) });
    expect(later).toMatchObject({ ok: true, checked: { ordersAskedOfProviders: 0 } });
  });
});

describe('the daily job', () => {
  const warnings: Array<{ obj: object; msg?: string }> = [];
  const log = { info: () => undefined, warn: (obj: object, msg?: string) => void warnings.push({ obj, msg }) };

  it('logs a warning per difference and counts them in /api/metrics (spotter_ledger_differences)', async () => {
    const metricsApp = Fastify();
    afterAll(() => metricsApp.close());
    const metrics = registerMetrics(metricsApp);
    const gauge = async () => /^spotter_ledger_differences (\d+)$/m.exec((await metricsApp.inject('/api/metrics')).body)?.[1];
    expect(await gauge()).toBe('0');

    const p = await paidBooking(db);
    const restore = repairing(() =>
      db
        .update(payments)
        .set({ amountCents: p.amountCents, feeCents: p.feeCents })
        .where(eq(payments.providerOrderId, p.orderId)),
    );
    await db.update(payments).set({ amountCents: 1, feeCents: 0 }).where(eq(payments.providerOrderId, p.orderId));
    const report = await runLedgerCheck({ db, log, countDifferences: metrics.ledgerDifferences });
    expect(report.differences).toHaveLength(1);
    expect(warnings.map((w) => w.msg)).toEqual([report.differences[0].message]);
    expect(await gauge()).toBe('1');
    // kept as a payment event for operators, once: the same difference found again is not written again
    const recorded = () =>
      db
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.kind, 'ledger-difference'), eq(paymentEvents.providerOrderId, p.orderId)));
    expect((await recorded()).map((e) => e.details.message)).toEqual([report.differences[0].message]);
    await runLedgerCheck({ db, log, countDifferences: metrics.ledgerDifferences });
    expect(await recorded()).toHaveLength(1);
    warnings.length = 1;

    await restore();
    await runLedgerCheck({ db, log, countDifferences: metrics.ledgerDifferences });
    expect(await gauge()).toBe('0');
    expect(warnings).toHaveLength(1);
    // the app's own /api/metrics has the gauge (the money module sets it once the job is wired)
    expect((await t.app.inject('/api/metrics')).body).toMatch(/^spotter_ledger_differences 0$/m);
  });

  it('is scheduled once, and each run schedules the next a day later', async () => {
    repairing(() => db.delete(jobs).where(eq(jobs.kind, ledgerCheckJob.name)));
    // the app under test scheduled its own recurring jobs at its start (the daily check among them),
    // which this runner of 2030 would find due: this test starts from none
    await db.delete(jobs);
    let clock = new Date('2030-01-01T00:00:00Z');
    const now = () => clock;
    const runner = createJobRunner({ db, log: t.app.log, now });
    const counts: number[] = [];
    const deps = { db, log, jobs: runner, now, countDifferences: (n: number) => void counts.push(n) };
    const scheduled = () =>
      db
        .select({ runAt: jobs.runAt, failedAt: jobs.failedAt })
        .from(jobs)
        .where(eq(jobs.kind, ledgerCheckJob.name))
        .orderBy(jobs.runAt);
    // two processes starting: one job
    await scheduleDailyLedgerCheck(deps);
    await scheduleDailyLedgerCheck(deps);
    expect(await scheduled()).toEqual([{ runAt: new Date('2030-01-01T00:01:00Z'), failedAt: null }]);

    clock = new Date('2030-01-01T00:02:00Z');
    expect(await runner.runDue({ now: clock })).toBe(1);
    expect(counts).toEqual([0]);
    expect(await scheduled()).toEqual([{ runAt: new Date('2030-01-02T00:02:00Z'), failedAt: null }]);
    // the next start schedules nothing more
    await scheduleDailyLedgerCheck(deps);
    expect(await scheduled()).toHaveLength(1);
    await db.delete(jobs).where(eq(jobs.kind, ledgerCheckJob.name));
  });
});

// last: the ledger is append-only, so what these write stays in the file's database
describe('what the database lets through and the check still finds', () => {
  it('a transaction with no entries, and an account taken below zero by plain SQL', async () => {
    const trainer = randomUUID();
    const empty = `empty:${randomUUID()}`;
    const negative = `negative:${randomUUID()}`;
    await db.execute(sql`insert into ledger_transactions (key, kind) values (${empty}, 'payment')`);
    await db.transaction(async (tx) => {
      const inserted = await tx.execute(
        sql`insert into ledger_transactions (key, kind) values (${negative}, 'refund') returning id`,
      );
      const [row] = (inserted as unknown as { rows: Array<{ id: string }> }).rows;
      await tx.execute(sql`
        insert into ledger_entries (transaction_id, account, currency, amount_cents)
        values (${row.id}, ${account.trainerPending(trainer)}, 'USD', -2500), (${row.id}, 'world:demo', 'USD', 2500)`);
    });
    const report = await check();
    expect(report.ok).toBe(false);
    expect(report.differences).toEqual([
      { kind: 'empty-transaction', key: empty, message: `Ledger transaction ${empty} (payment) has no entries.` },
      {
        kind: 'negative-account',
        account: account.trainerPending(trainer),
        message: `Account ${account.trainerPending(trainer)} is below zero: -25.00 USD.`,
      },
    ]);
  });
});

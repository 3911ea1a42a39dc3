import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTransactions } from '../../src/db/schema';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { createAccount } from '../helper';
import { bookableTrainer, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';

/**
 * The ledger's invariants (docs/decisions/042-money-ledger.md) over random sequences of what people
 * and PayPal do, through the API against the fake of PayPal's documented contract: every
 * transaction sums to zero per currency; no account but the provider's world goes below zero; for
 * every order, what PayPal captured minus what it refunded equals what the ledger says was paid.
 */
const { t, paypal } = await usePaypalApp({ timeoutMs: 1_000, slowMs: 2_500 });
const db = t.database.db;
const trainer = await bookableTrainer(t, { price: 120 });
const user = await createAccount(t, 'user');
let slot = 30;

type Op =
  | 'pay'
  | 'pay-twice'
  | 'declined'
  | 'answer-lost'
  | 'provider-error'
  | 'captured-cent'
  | 'captured-yen'
  | 'cancel-last'
  | 'cancel-racing';
const OPS: Op[] = [
  'pay',
  'pay-twice',
  'declined',
  'answer-lost',
  'provider-error',
  'captured-cent',
  'captured-yen',
  'cancel-last',
  'cancel-racing',
];
/** Runs the jobs due by then: the reconciliation's check of an order, a refund's retry. */
const runJobs = () => t.app.jobs.runDue({ now: new Date(Date.now() + 2 * 60_000) });

/** Orders this run created, and the bookings paid. */
const orders: string[] = [];
const paid: string[] = [];

async function heldOrder() {
  const held = await hold(t, user.token, trainer.id, hourFromNow(slot++));
  expect(held.statusCode).toBe(201);
  const bookingId = held.json().booking._id as string;
  const orderId = (await createOrder(t, user.token, { bookingId })).json().id as string;
  orders.push(orderId);
  return { bookingId, orderId };
}

async function apply(op: Op) {
  if (op === 'pay' || op === 'pay-twice') {
    const { bookingId, orderId } = await heldOrder();
    const answers =
      op === 'pay'
        ? [await capture(t, user.token, orderId)]
        : await Promise.all([capture(t, user.token, orderId), capture(t, user.token, orderId)]);
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    paid.push(bookingId);
  } else if (op === 'declined') {
    const { bookingId, orderId } = await heldOrder();
    paypal.failNext('capture', 'decline');
    expect((await capture(t, user.token, orderId)).statusCode).toBe(422);
    // the user gives up: the hold is released (a user keeps at most 3)
    expect((await cancel(t, user.token, bookingId)).statusCode).toBe(200);
  } else if (op === 'answer-lost') {
    // PayPal captures, its answer comes after Spotter's timeout; the job finds it
    const { bookingId, orderId } = await heldOrder();
    paypal.failNext('capture', 'slow');
    expect((await capture(t, user.token, orderId)).statusCode).toBe(504);
    await runJobs();
    paid.push(bookingId);
  } else if (op === 'provider-error') {
    // a 500 before anything moved: the job finds nothing captured; the user gives up
    const { bookingId, orderId } = await heldOrder();
    paypal.failNext('capture', 'server-error');
    expect((await capture(t, user.token, orderId)).statusCode).toBe(502);
    await runJobs();
    expect((await cancel(t, user.token, bookingId)).statusCode).toBe(200);
  } else if (op === 'captured-cent' || op === 'captured-yen') {
    const { orderId } = await heldOrder();
    paypal.captureAs(orderId, op === 'captured-cent' ? { value: '0.01' } : { currency_code: 'JPY', value: '120' });
    expect((await capture(t, user.token, orderId)).statusCode).toBe(422);
  } else if (op === 'cancel-last' || op === 'cancel-racing') {
    const bookingId = paid.pop();
    if (!bookingId) return;
    const answers = await Promise.all(
      Array.from({ length: op === 'cancel-racing' ? 3 : 1 }, () => cancel(t, user.token, bookingId)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  }
}

/** PayPal's view of an order: captured minus refunded, in hundredths, per currency (zeros left out). */
function providerNet(orderId: string): Record<string, number> {
  const cents = (v: string) => Math.round(Number(v) * 100);
  const net: Record<string, number> = {};
  const charges = paypal.state.ledger.charges.filter((c) => c.orderId === orderId);
  const ids = new Set(charges.map((c) => c.captureId));
  const add = (currency: string | undefined, n: number) => (net[currency ?? 'USD'] = (net[currency ?? 'USD'] ?? 0) + n);
  for (const c of charges) add((c as { currency?: string }).currency, cents(c.amount));
  for (const r of paypal.state.ledger.refunds.filter((x) => ids.has(x.captureId)))
    add((r as { currency?: string }).currency, -cents(r.amount));
  return Object.fromEntries(Object.entries(net).filter(([, n]) => n !== 0));
}

/** What the ledger says was paid on an order: what left the provider's world account, per currency. */
async function ledgerNet(orderId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ currency: ledgerEntries.currency, total: sql<string>`-sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(sql`${ledgerTransactions.providerOrderId} = ${orderId} and ${ledgerEntries.account} like 'world:%'`)
    .groupBy(ledgerEntries.currency);
  return Object.fromEntries(rows.map((r) => [r.currency, Number(r.total)]).filter(([, n]) => n !== 0));
}

async function expectInvariants() {
  // every transaction balanced, no account but a world one below zero, payments and refunds as stored
  expect((await checkLedger({ db })).differences).toEqual([]);
  for (const orderId of orders)
    expect({ orderId, net: await ledgerNet(orderId) }).toEqual({ orderId, net: providerNet(orderId) });
}

describe('the ledger over random sequences of payments, lost answers, wrong amounts and currencies, declines and cancels', () => {
  it('balances, never goes below zero, and agrees with PayPal order by order', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...OPS), { minLength: 1, maxLength: 5 }), async (ops) => {
        for (const op of ops) await apply(op);
        await expectInvariants();
      }),
      { numRuns: 8 },
    );
  });
});

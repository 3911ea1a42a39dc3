import { eq, sql } from 'drizzle-orm';
import { bookings, ledgerEntries, ledgerTransactions, paymentEvents, payments } from '../../src/db/schema';
import { createPaymentProviders } from '../../src/modules/money';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { expect } from 'vitest';
import { createAccount, type TestApp } from '../helper';
import { bookableTrainer, bookAndPay, capture, createOrder, hold } from '../support/bookings';
import type { startFakePaypal } from '../support/fake-paypal';

type FakePaypal = Awaited<ReturnType<typeof startFakePaypal>>;

/**
 * What the money tests read of an order, through the app `t` and the fake PayPal: what the ledger
 * says was paid on it, what PayPal holds of it, its booking's status and payment events; and a held
 * order to start from. Amounts in hundredths, per currency where asked (zeros left out).
 */
export function orderProbes(t: TestApp, paypal: FakePaypal, nextSlot: () => string) {
  const db = t.database.db;

  /** What the ledger says was paid on an order: what left the provider's world account, per currency. */
  async function ledgerNetByCurrency(orderId: string): Promise<Record<string, number>> {
    const rows = await db
      .select({ currency: ledgerEntries.currency, total: sql<string>`-sum(${ledgerEntries.amountCents})` })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(sql`${ledgerTransactions.providerOrderId} = ${orderId} and ${ledgerEntries.account} like 'world:%'`)
      .groupBy(ledgerEntries.currency);
    return Object.fromEntries(rows.map((r) => [r.currency, Number(r.total)]).filter(([, n]) => n !== 0));
  }

  /** PayPal's view of an order: captured minus refunded, per currency. */
  function paypalNetByCurrency(orderId: string): Record<string, number> {
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

  /** A slot held by `token` and its order. */
  async function heldOrder(token: string, trainerId: string, startsAt = nextSlot()) {
    const bookingId = (await hold(t, token, trainerId, startsAt)).json().booking._id as string;
    const orderId = (await createOrder(t, token, { bookingId })).json().id as string;
    return { bookingId, orderId };
  }

  return {
    heldOrder,
    /**
     * A new user's order with a new trainer at `price`, whose capture PayPal made but answered after
     * Spotter's timeout (504): the money moved, Spotter does not know yet.
     */
    async orderWithLostAnswer(price: number) {
      const trainer = await bookableTrainer(t, { price });
      const me = await createAccount(t, 'user');
      const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
      paypal.failNext('capture', 'slow');
      expect((await capture(t, me.token, orderId)).statusCode).toBe(504);
      return { trainer, me, bookingId, orderId };
    },
    /** PayPal's signed PAYMENT.CAPTURE.COMPLETED delivery of an order's capture, for `webhookId`. */
    completedDelivery: (orderId: string, webhookId = 'WH-SPOTTER-TEST') =>
      paypal.webhookDelivery(paypal.captureEvent('PAYMENT.CAPTURE.COMPLETED', orderId), { webhookId }),
    /** PayPal's signed delivery of a REFUNDED or REVERSED event about the order's latest refund. */
    givenBackDelivery: (
      type: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED',
      orderId: string,
      webhookId = 'WH-SPOTTER-TEST',
    ) => paypal.webhookDelivery(paypal.captureEvent(type, orderId), { webhookId }),
    /** The ledger check's differences, asking the fake PayPal about every order too. */
    async checkAgainstPaypal() {
      const { providers } = createPaymentProviders(
        { clientId: paypal.clientId, clientSecret: paypal.clientSecret, apiBase: paypal.url, timeoutMs: 5_000 },
        t.app.log,
      );
      return (await checkLedger({ db, providers })).differences;
    },
    /** A new user's paid session with `trainer` (a new one at `price` by default), and its payment row. */
    async paidSession(price = 200, startsAt = nextSlot(), trainer?: { id: string; token: string; email: string }) {
      const who = trainer ?? (await bookableTrainer(t, { price }));
      const user = await createAccount(t, 'user');
      const { bookingId, orderId } = await bookAndPay(t, user.token, who.id, startsAt);
      const [payment] = await db.select().from(payments).where(eq(payments.bookingId, bookingId));
      return { trainer: who, user, bookingId, orderId, payment };
    },
    ledgerNetByCurrency,
    paypalNetByCurrency,
    /** What the ledger says was paid on an order in dollars' hundredths, net of refunds. */
    netPaid: async (orderId: string) => (await ledgerNetByCurrency(orderId)).USD ?? 0,
    /** What PayPal holds of an order in dollars' hundredths: charged minus refunded. */
    heldAtPaypal: (orderId: string) => paypalNetByCurrency(orderId).USD ?? 0,
    statusOf: async (id: string) =>
      (await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].status,
    eventsOf: async (orderId: string) =>
      (await db.select().from(paymentEvents).where(eq(paymentEvents.providerOrderId, orderId))).map((e) => e.kind),
    /** Posts a webhook delivery as PayPal sends it. */
    postWebhook: (delivery: { headers: Record<string, string>; body: string }) =>
      t.app.inject({ method: 'POST', url: '/api/payments/webhooks/paypal', headers: delivery.headers, payload: delivery.body }),
  };
}

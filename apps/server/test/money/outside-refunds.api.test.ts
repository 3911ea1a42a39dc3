// Money PayPal gives back without Spotter asking (docs/decisions/042-money-ledger.md#reversals): a
// refund made in PayPal's dashboard, or a reversal (a chargeback the payer won), delivered as a
// signed webhook. Each is booked on the ledger once, from the trainer's share and the fee; what was
// paid out already is Spotter's loss; the ledger check stays clean against PayPal.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, ledgerTransactions, payments, refunds } from '../../src/db/schema';
import { account, balance } from '../../src/modules/money';
import { auth, cancel, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { orderProbes } from './order-probes';

const WEBHOOK_ID = 'WH-SPOTTER-TEST';
const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: WEBHOOK_ID } });
const db = t.database.db;
const HOUR = 60 * 60_000;
const MINUTE = 60_000;
let hourOffset = 50;
const nextSlot = () => hourFromNow(hourOffset++);
const { postWebhook, netPaid, heldAtPaypal, statusOf, givenBackDelivery, checkAgainstPaypal, paidSession } = orderProbes(
  t,
  paypal,
  nextSlot,
);

const totalsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/payments', headers: auth(token) })).json().totals as {
    pending: number;
    payable: number;
    paidOut: number;
    refunded: number;
  };

const kindsOf = async (bookingId: string) =>
  (await db.select({ kind: ledgerTransactions.kind }).from(ledgerTransactions).where(eq(ledgerTransactions.bookingId, bookingId)))
    .map((r) => r.kind)
    .sort();

describe('a reversal (chargeback) of an upcoming paid session', () => {
  it('is booked once: the session is cancelled, both people told, the share and fee given back', async () => {
    const { trainer, user, bookingId, orderId, payment } = await paidSession(200);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(payment.amountCents - payment.feeCents);

    paypal.refundOutside(orderId);
    const sent = givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId);
    expect((await postWebhook(sent)).statusCode).toBe(200);

    expect(await statusOf(bookingId)).toBe('refunded');
    const [after] = await db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after.status).toBe('refunded');
    expect(await kindsOf(bookingId)).toEqual(['payment', 'reversal']);
    expect(await netPaid(orderId)).toBe(0);
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await balance(db, account.losses)).toBe(0);
    expect(await totalsOf(trainer.token)).toMatchObject({ pending: 0, refunded: 200 });
    const [row] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row.cancelReason).toMatch(/reversed by paypal/i);
    for (const who of [user.email, trainer.email])
      expect(t.outbox().some((m) => m.to === who && /cancel/i.test(m.subject))).toBe(true);

    // the same delivery again, and a REFUNDED event about the same movement: nothing more
    expect((await postWebhook(sent)).json()).toMatchObject({ duplicate: true });
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    expect(await kindsOf(bookingId)).toEqual(['payment', 'reversal']);
    expect(await checkAgainstPaypal()).toEqual([]);
  });
});

describe('a partial refund made in PayPal’s dashboard', () => {
  it('gives back that part from the share and the fee; the session stays; a later cancel refunds the rest', async () => {
    const { trainer, user, bookingId, orderId, payment } = await paidSession(200);
    const refundId = paypal.refundOutside(orderId, '50.00');
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);

    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(await netPaid(orderId)).toBe(15_000);
    expect(heldAtPaypal(orderId)).toBe(15_000);
    const [outside] = await db.select().from(refunds).where(eq(refunds.providerRefundId, refundId));
    expect(outside).toMatchObject({ status: 'completed', amountCents: 5_000 });
    // a quarter of the price: a quarter of the share and of the fee
    const share = payment.amountCents - payment.feeCents;
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(share - (5_000 - payment.feeCents / 4));
    expect(await checkAgainstPaypal()).toEqual([]);
    // the trainer's earnings row and totals say what is kept: $150 of which the fee is a quarter less
    const page = (await t.app.inject({ url: '/api/payments', headers: auth(trainer.token) })).json();
    const row = page.payments.find((p: { bookingId: string }) => p.bookingId === bookingId);
    const keptFee = (payment.feeCents * 3) / 4 / 100;
    expect(row).toMatchObject({ status: 'completed', amount: 200, refunded: 50, fee: keptFee, net: 150 - keptFee });
    expect(page.totals).toMatchObject({ charged: 200, refunded: 50, fees: keptFee, net: 150 - keptFee, pending: 150 - keptFee });

    // the user cancels more than a day ahead: Spotter refunds what is left, and PayPal takes it
    expect((await cancel(t, user.token, bookingId)).statusCode).toBe(200);
    expect(await statusOf(bookingId)).toBe('refunded');
    expect(await netPaid(orderId)).toBe(0);
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await checkAgainstPaypal()).toEqual([]);
  });

  it('of a session that took place: the rest of the share still becomes payable and is paid out', async () => {
    const startsAt = hourFromNow(3);
    const { trainer, bookingId, orderId, payment } = await paidSession(200, startsAt);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/payout',
      headers: auth(trainer.token),
      payload: { email: `rest.${Date.now()}@example.com` },
    });
    expect(saved.statusCode).toBe(200);
    paypal.refundOutside(orderId, '20.00');
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);

    const endsAt = Date.parse(startsAt) + HOUR;
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 11 * MINUTE) });
    const rest = payment.amountCents - payment.feeCents - (2_000 - payment.feeCents / 10);
    expect(await kindsOf(bookingId)).toEqual(['payable', 'payment', 'refund']);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect((await totalsOf(trainer.token)).payable + (await totalsOf(trainer.token)).paidOut).toBe(rest / 100);
  });
});

describe('a refund made at PayPal whose webhook has not arrived', () => {
  it('is found by the next cancel (PayPal refuses it: fully refunded), booked once, and the session refunded', async () => {
    const { user, bookingId, orderId } = await paidSession(200);
    const refundId = paypal.refundOutside(orderId);

    const res = await cancel(t, user.token, bookingId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(bookingId)).toBe('refunded');
    expect(await netPaid(orderId)).toBe(0);
    expect(heldAtPaypal(orderId)).toBe(0);
    const rows = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
    expect(rows.map((r) => [r.status, r.providerRefundId ?? null]).sort()).toEqual([
      ['completed', refundId],
      ['failed', null],
    ]);
    expect(await checkAgainstPaypal()).toEqual([]);

    // the webhook, late: nothing more
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    expect(await kindsOf(bookingId)).toEqual(['payment', 'refund']);
    expect(await netPaid(orderId)).toBe(0);
  });
});

describe('a refund Spotter made itself', () => {
  it('is not booked again when PayPal’s REFUNDED event about it arrives', async () => {
    const { user, bookingId, orderId } = await paidSession(200);
    expect((await cancel(t, user.token, bookingId)).statusCode).toBe(200);
    expect(await kindsOf(bookingId)).toEqual(['payment', 'refund']);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    expect(await kindsOf(bookingId)).toEqual(['payment', 'refund']);
    expect(await netPaid(orderId)).toBe(0);
    expect(
      await db
        .select()
        .from(refunds)
        .where(and(eq(refunds.providerOrderId, orderId), eq(refunds.status, 'completed'))),
    ).toHaveLength(1);
  });
});

describe('a reversal after the trainer was paid out', () => {
  it('takes what it can from the trainer’s balance and books the rest as Spotter’s loss', async () => {
    // after the daily payout the test above ran: the next one is due when this share is
    const startsAt = hourFromNow(30);
    const { trainer, bookingId, orderId, payment } = await paidSession(200, startsAt);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/payout',
      headers: auth(trainer.token),
      payload: { email: `paid.${Date.now()}@example.com` },
    });
    expect(saved.statusCode).toBe(200);
    // the time to dispute it over: the share became payable and was paid out (the sweep after settles the batch)
    const endsAt = Date.parse(startsAt) + HOUR;
    await t.app.jobs.runDue({ now: new Date(endsAt + 49 * HOUR) });
    await t.app.jobs.runDue({ now: new Date(endsAt + 49 * HOUR + 11 * MINUTE) });
    const share = payment.amountCents - payment.feeCents;
    expect((await totalsOf(trainer.token)).paidOut).toBe(share / 100);
    const lossesBefore = await balance(db, account.losses);

    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    expect(await netPaid(orderId)).toBe(0);
    expect(await statusOf(bookingId)).not.toBe('confirmed');
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(0);
    expect(await balance(db, account.losses)).toBe(lossesBefore - share);
    // the trainer keeps what was paid out; the check has nothing to say (losses may be below zero)
    expect((await totalsOf(trainer.token)).paidOut).toBe(share / 100);
    expect(await checkAgainstPaypal()).toEqual([]);
  });
});

describe('a dispute the payer opens at PayPal', () => {
  it('keeps the share from becoming payable until it is resolved; resolved for Spotter, the share is paid', async () => {
    // after every clock the tests above moved: the sweeps and the daily payout are due by then
    const startsAt = hourFromNow(100);
    const { trainer, bookingId, orderId, payment } = await paidSession(200, startsAt);
    const disputeId = `PP-D-${Date.now()}`;
    const opened = paypal.webhookDelivery(paypal.disputeEvent('CUSTOMER.DISPUTE.CREATED', orderId, { disputeId }), {
      webhookId: WEBHOOK_ID,
    });
    expect((await postWebhook(opened)).statusCode).toBe(200);
    expect((await postWebhook(opened)).json()).toMatchObject({ duplicate: true });

    // two days after the session: still pending, not payable
    const endsAt = Date.parse(startsAt) + HOUR;
    // (two runs, as the tests above moved the ten-minute sweep's clock: one of them is due)
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR) });
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 30 * MINUTE) });
    const share = payment.amountCents - payment.feeCents;
    expect(await kindsOf(bookingId)).toEqual(['payment']);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(share);

    // resolved in the seller's favour: the next sweep makes it payable
    const resolved = paypal.webhookDelivery(
      paypal.disputeEvent('CUSTOMER.DISPUTE.RESOLVED', orderId, { disputeId, outcome: 'RESOLVED_SELLER_FAVOUR' }),
      { webhookId: WEBHOOK_ID },
    );
    expect((await postWebhook(resolved)).statusCode).toBe(200);
    await t.app.jobs.runDue({ now: new Date(endsAt + 49 * HOUR) });
    expect(await kindsOf(bookingId)).toEqual(['payable', 'payment']);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await checkAgainstPaypal()).toEqual([]);
  });

  it('resolved for the payer: the reversal gives the money back and the share is never payable', async () => {
    const startsAt = hourFromNow(110);
    const { trainer, bookingId, orderId } = await paidSession(200, startsAt);
    const disputeId = `PP-D-${Date.now()}-b`;
    const send = (type: 'CUSTOMER.DISPUTE.CREATED' | 'CUSTOMER.DISPUTE.RESOLVED') =>
      postWebhook(
        paypal.webhookDelivery(paypal.disputeEvent(type, orderId, { disputeId, outcome: 'RESOLVED_BUYER_FAVOUR' }), {
          webhookId: WEBHOOK_ID,
        }),
      );
    expect((await send('CUSTOMER.DISPUTE.CREATED')).statusCode).toBe(200);
    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    expect((await send('CUSTOMER.DISPUTE.RESOLVED')).statusCode).toBe(200);
    await t.app.jobs.runDue({ now: new Date(Date.parse(startsAt) + 49 * HOUR) });
    expect(await kindsOf(bookingId)).toEqual(['payment', 'reversal']);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await netPaid(orderId)).toBe(0);
    expect(await checkAgainstPaypal()).toEqual([]);
  });
});

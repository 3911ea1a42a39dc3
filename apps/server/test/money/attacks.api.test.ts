// Money an unknown outcome could lose, found by an attack on the money layer: each test failed
// before its fix (docs/decisions/042-money-ledger.md#unknown-outcomes, #webhooks, #captures).
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, jobs, refunds } from '../../src/db/schema';
import { createAccount } from '../helper';
import { bookableTrainer, bookAndPay, cancel, capture, hourFromNow } from '../support/bookings';
import { PROVIDER_DOWN, usePaypalApp } from '../support/paypal-app';
import { orderProbes } from './order-probes';

const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: 'WH-SPOTTER-TEST' } });
const db = t.database.db;
const MINUTE = 60_000;
const start = Date.now();
/** Runs the jobs due `minutes` after the file started (each call later than the one before). */
const runJobsAt = (minutes: number) => t.app.jobs.runDue({ now: new Date(start + minutes * MINUTE) });
let hourOffset = 60;
const nextSlot = () => hourFromNow(hourOffset++);
const { statusOf, heldOrder, netPaid, heldAtPaypal, postWebhook, orderWithLostAnswer, completedDelivery } = orderProbes(
  t,
  paypal,
  nextSlot,
);
const parkedJobs = async (kind: string) =>
  (await db.select().from(jobs).where(eq(jobs.kind, kind))).filter((j) => j.failedAt !== null);

describe('an unknown outcome is never forgotten (issue 30: "a durable job asks the provider until it is settled")', () => {
  it('a PENDING capture that completes after ~10 minutes is still placed: the check-order job is never parked', async () => {
    const trainer = await bookableTrainer(t, { price: 125 });
    const me = await createAccount(t, 'user');
    const { orderId } = await heldOrder(me.token, trainer.id);
    paypal.captureAs(orderId, { status: 'PENDING' });
    const first = await capture(t, me.token, orderId);
    expect(first.json().purchase_units[0].payments.captures[0].status).toBe('PENDING');
    // an eCheck stays PENDING for days; the job asks, backs off, asks again…
    for (const m of [2, 3, 5, 9, 17, 40]) await runJobsAt(m);
    // …and PayPal completes the capture: the money moved
    paypal.settleCapture(orderId, 'COMPLETED');
    await runJobsAt(180);
    await runJobsAt(600);
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
    // whatever Spotter decided (confirmed, or too late and refunded), the ledger must agree with PayPal
    expect(await netPaid(orderId)).toBe(heldAtPaypal(orderId));
    expect(await parkedJobs('payment.check-order')).toEqual([]);
  });

  it('a refund PayPal could not take for ~10 minutes is still finished when it can', async () => {
    const trainer = await bookableTrainer(t, { price: 175 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(24 * 6));
    for (let i = 0; i < 6; i++) paypal.failNext('refund', 'server-error');
    expect(PROVIDER_DOWN).toContain((await cancel(t, me.token, bookingId)).statusCode);
    for (const m of [1003, 1004, 1006, 1010, 1018]) await runJobsAt(m);
    // PayPal is back; the refund written before the call is still owed
    await runJobsAt(1200);
    await runJobsAt(1500);
    const [refund] = await db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
    expect(refund.status).toBe('completed');
    expect(await statusOf(bookingId)).toBe('refunded');
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await netPaid(orderId)).toBe(0);
  });
});

describe('a webhook is recorded as seen only with its effect (issue 30: "idempotent by event id")', () => {
  it('a webhook delivery whose settlement fails once is applied on PayPal’s next delivery', async () => {
    // the capture's answer is lost (Spotter's timeout); PayPal took the money
    const { bookingId, orderId } = await orderWithLostAnswer(135);
    const delivery = completedDelivery(orderId);
    const post = () => postWebhook(delivery);
    // one transient database failure while it is settled (a deadlock, a restart, a full disk)
    expect(/^[A-Z0-9]+$/.test(orderId)).toBe(true);
    await db.execute(sql`create or replace function g_attack_fail() returns trigger language plpgsql as $$
      begin raise exception 'injected transient failure'; end $$`);
    await db.execute(
      sql.raw(`create trigger g_attack_fail before insert on payments for each row
        when (new.provider_order_id = '${orderId}') execute function g_attack_fail()`),
    );
    try {
      const failed = await post();
      expect(failed.statusCode).toBeGreaterThanOrEqual(500); // PayPal delivers it again
    } finally {
      await db.execute(sql`drop trigger if exists g_attack_fail on payments`);
    }
    const retry = await post();
    expect(retry.statusCode).toBe(200);
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(await netPaid(orderId)).toBe(13500);
  });
});

describe('a capture that completes after its hold lapsed (issue 30: refunded, not booked)', () => {
  it('a PENDING capture completed after the session’s time is refunded, never confirmed', async () => {
    const trainer = await bookableTrainer(t, { price: 115 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
    paypal.captureAs(orderId, { status: 'PENDING' });
    expect((await capture(t, me.token, orderId)).json().purchase_units[0].payments.captures[0].status).toBe('PENDING');
    // days pass (emulated): the capture's extension of the hold ran out after the hold's own expiry
    // job had run (it finds the hold extended and does nothing, and nothing runs again), and the
    // session's hour went by; the booking is still 'pending' with a lapsed hold
    const day = 24 * 60 * MINUTE;
    const [row] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
    await db
      .update(bookings)
      .set({
        holdExpiresAt: new Date(Date.now() - 3 * day),
        startsAt: new Date(row.startsAt.getTime() - 5 * day),
        endsAt: new Date(row.endsAt.getTime() - 5 * day),
      })
      .where(eq(bookings.id, bookingId));
    await db.delete(jobs).where(sql`${jobs.kind} = 'booking.expire-hold' and ${jobs.payload}->>'bookingId' = ${bookingId}`);
    // the eCheck clears; PayPal tells Spotter
    paypal.settleCapture(orderId, 'COMPLETED');
    const delivery = completedDelivery(orderId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/paypal',
      headers: delivery.headers,
      payload: delivery.body,
    });
    expect(res.statusCode).toBe(200);
    // a session that is over cannot be sold: the money goes back, as for any capture after the hold ended
    expect(await statusOf(bookingId)).not.toBe('confirmed');
    expect(heldAtPaypal(orderId)).toBe(0);
  });
});

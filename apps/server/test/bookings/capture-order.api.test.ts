// The capture-order use case (src/modules/bookings/capture-order.ts), through its route.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG } from '@spotter/shared';
import { bookings, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';

const t = await useTestApp();
const db = t.database.db;

const paymentsOf = (bookingId: string) => db.select().from(payments).where(eq(payments.bookingId, bookingId));
const bookingRow = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];

describe('POST /api/orders/:orderID/capture', () => {
  it('confirms the booking and stores the payment in one go; the answer has the spec’s shape', async () => {
    const trainer = await bookableTrainer(t, { price: 200 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(70))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.id).toBe(orderId);
    expect(body.status).toBe('COMPLETED');
    const cap = body.purchase_units[0].payments.captures[0];
    expect(cap.status).toBe('COMPLETED');
    expect(cap.id).toMatch(/^DEMO-CAPTURE-/);
    expect(body.booking).toMatchObject({ _id: bookingId, status: 'confirmed', holdExpiresAt: null });
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
    const [payment] = await paymentsOf(bookingId);
    expect(payment).toMatchObject({
      provider: 'demo',
      providerOrderId: orderId,
      captureId: cap.id,
      amountCents: 20000,
      feeCents: 2000,
      currency: 'USD',
      status: 'completed',
      userId: me.id,
      trainerId: trainer.id,
    });
    expect(payment.raw).toMatchObject({ id: orderId, status: 'COMPLETED' });
  });

  it('a second capture of the same order answers the stored result and charges nothing more', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId, orderId, capture: first } = await bookAndPay(t, me.token, trainer.id, hourFromNow(75));
    const [again, concurrentA, concurrentB] = await Promise.all([
      capture(t, me.token, orderId),
      capture(t, me.token, orderId),
      capture(t, me.token, orderId),
    ]);
    for (const res of [again, concurrentA, concurrentB]) {
      expect(res.statusCode).toBe(200);
      expect(res.json().purchase_units[0].payments.captures[0].id).toBe(first.purchase_units[0].payments.captures[0].id);
    }
    expect(await paymentsOf(bookingId)).toHaveLength(1);
  });

  it('concurrent first captures of one order store one payment', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(76))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    const results = await Promise.all([0, 1, 2, 3].map(() => capture(t, me.token, orderId)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await paymentsOf(bookingId)).toHaveLength(1);
    expect(t.outbox().filter((m) => m.to === me.email && m.subject.startsWith('Booked'))).toHaveLength(1);
  });

  it('a release racing the capture of its hold: no 5xx, and the money and the booking agree', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    for (let i = 0; i < 12; i++) {
      const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(120 + i))).json().booking._id;
      const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
      const [captured, released] = await Promise.all([capture(t, me.token, orderId), cancel(t, me.token, bookingId)]);
      expect(
        [captured.statusCode, released.statusCode].every((s) => s < 500),
        `${captured.body} ${released.body}`,
      ).toBe(true);
      const { status } = await bookingRow(bookingId);
      const [payment] = await paymentsOf(bookingId);
      // paid and kept, or never paid, or paid and given back
      if (status === 'confirmed') expect(payment?.status).toBe('completed');
      else expect(payment?.status ?? 'none').not.toBe('completed');
    }
  });

  it('only the order’s owner can capture it; unknown orders are 404', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const thief = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(80))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    expect((await capture(t, thief.token, orderId)).statusCode).toBe(403);
    expect((await capture(t, trainer.token, orderId)).statusCode).toBe(403);
    expect((await capture(t, undefined, orderId)).statusCode).toBe(401);
    expect((await capture(t, me.token, 'DEMO-NOSUCHORDER')).statusCode).toBe(404);
    expect((await bookingRow(bookingId)).status).toBe('pending');
    expect(await paymentsOf(bookingId)).toEqual([]);
  });

  it('a hold that lapsed before the capture is not charged (409)', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(85))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, bookingId));
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BOOKING_MSG.holdExpired);
    expect(await paymentsOf(bookingId)).toEqual([]);
  });
});

// The create-order use case (src/modules/bookings/create-order.ts), through its route.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, ROLE_MSG } from '@spotter/shared';
import { accounts, bookings, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';

const t = await useTestApp();
const db = t.database.db;

const paymentsOf = (bookingId: string) => db.select().from(payments).where(eq(payments.bookingId, bookingId));
const bookingRow = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];

describe('POST /api/orders', () => {
  it('charges the price frozen when the slot was held; amounts, products and carts from the browser are ignored', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(50))).json().booking._id;
    // the trainer changes their price after the hold: the order keeps the held one
    await db.update(accounts).set({ priceCents: 16550 }).where(eq(accounts.id, trainer.id));
    const res = await createOrder(t, me.token, {
      bookingId,
      cart: [{ id: 'hoodie', quantity: 1 }],
      amount: { currency_code: 'USD', value: '0.01' },
      price: 1,
      priceCents: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'CREATED', amount: { currency_code: 'USD', value: '150.00' } });
    expect(res.json().id).toMatch(/^DEMO-/);
    const row = await bookingRow(bookingId);
    expect(row).toMatchObject({ priceCents: 15000, provider: 'demo', providerOrderId: res.json().id });
    // asking again gives the same order
    expect((await createOrder(t, me.token, { bookingId })).json().id).toBe(res.json().id);
    const paid = await capture(t, me.token, res.json().id);
    expect(paid.json().purchase_units[0].payments.captures[0].amount).toEqual({ currency_code: 'USD', value: '150.00' });
    expect((await paymentsOf(bookingId))[0].amountCents).toBe(15000);
  });

  it('an order for someone else’s booking is 403; visitors 401, trainers 403, unknown bookings 404', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const bookingId = (await hold(t, owner.token, trainer.id, hourFromNow(55))).json().booking._id;
    const res = await createOrder(t, other.token, { bookingId });
    expect(res.statusCode).toBe(403);
    expect((await bookingRow(bookingId)).providerOrderId).toBeNull();
    const visitor = await createOrder(t, undefined, { bookingId });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(ROLE_MSG.loginToBook);
    const byTrainer = await createOrder(t, trainer.token, { bookingId });
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json().message).toBe(ROLE_MSG.trainersCantBook);
    for (const id of ['6f1c2b9e-0000-4000-8000-000000000000', 'nope'])
      expect((await createOrder(t, owner.token, { bookingId: id })).statusCode).toBe(404);
    expect((await createOrder(t, owner.token, {})).statusCode).toBe(400);
  });

  it('a paid booking, a released hold or a lapsed hold get no new order (409)', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(60));
    const paid = await createOrder(t, me.token, { bookingId });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(BOOKING_MSG.alreadyPaid);

    const released = (await hold(t, me.token, trainer.id, hourFromNow(61))).json().booking._id;
    await cancel(t, me.token, released);
    expect((await createOrder(t, me.token, { bookingId: released })).json().message).toBe(BOOKING_MSG.holdExpired);

    const lapsed = (await hold(t, me.token, trainer.id, hourFromNow(62))).json().booking._id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, lapsed));
    const late = await createOrder(t, me.token, { bookingId: lapsed });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(BOOKING_MSG.holdExpired);
  });
});

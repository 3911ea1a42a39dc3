// The cancel-booking and refund-booking use cases (src/modules/bookings/cancel-booking.ts, refund-booking.ts), through their route.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG } from '@spotter/shared';
import { bookings, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, hold, hourFromNow, slotsOf } from '../support/bookings';

const t = await useTestApp();
const db = t.database.db;

const bookingRow = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];

describe('POST /api/bookings/:id/cancel', () => {
  it('three days ahead: refunds through the provider, frees the slot, tells both sides', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(72);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    expect(await slotsOf(t, trainer.id)).not.toContain(startsAt);
    const res = await cancel(t, me.token, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: BOOKING_MSG.refunded, booking: { status: 'refunded', canCancel: false } });
    const [payment] = await db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(payment).toMatchObject({ status: 'refunded', provider: 'demo' });
    expect(payment.refundId).toMatch(/^DEMO-REFUND-/);
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
    const cancelMails = t
      .outbox()
      .filter((m) => m.subject.startsWith('Cancelled') && (m.to === me.email || m.to === trainer.email));
    expect(cancelMails).toHaveLength(2);
    // cancelling again changes nothing
    const again = await cancel(t, me.token, bookingId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BOOKING_MSG.alreadyOver);
  });

  it('twelve hours ahead: 409 for the user with a message, and the booking stays paid', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(12));
    const res = await cancel(t, me.token, bookingId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BOOKING_MSG.tooLateToCancel);
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
    expect((await db.select().from(payments).where(eq(payments.bookingId, bookingId)))[0].status).toBe('completed');
  });

  it('a pending booking is released; only its user or trainer may cancel', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const stranger = await createAccount(t, 'user');
    const startsAt = hourFromNow(45);
    const bookingId = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
    for (const token of [stranger.token, (await bookableTrainer(t)).token]) {
      const res = await cancel(t, token, bookingId);
      expect(res.statusCode).toBe(404);
    }
    expect((await cancel(t, undefined, bookingId)).statusCode).toBe(401);
    const res = await cancel(t, me.token, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: BOOKING_MSG.cancelled, booking: { status: 'cancelled' } });
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
    expect((await cancel(t, me.token, 'not-an-id')).statusCode).toBe(404);
  });

  it('the trainer may cancel a paid session more than 24 h ahead, which refunds the user', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(30));
    const res = await cancel(t, trainer.token, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json().booking.status).toBe('refunded');
  });
});

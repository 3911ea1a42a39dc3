// Releasing a late session for resale (docs/product.md#releasing-a-late-session, release-booking.ts):
// inside 24 hours a paid session cannot be refunded, but its user can give it back; if somebody
// else books it, the user is refunded in full, once; if nobody does, nothing changes.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, type TBooking, type TWaitlistEntry } from '@spotter/shared';
import { bookings, jobs, payments, refunds } from '../../src/db/schema';
import { RELEASE_JOBS } from '../../src/modules/bookings/booking-jobs';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, capture, createOrder, hourFromNow, slotsOf } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;

const release = (token: string | undefined, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/release`, headers: auth(token) });
const rowOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
const refundsOf = async (bookingId: string) => db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
const mailsTo = (email: string, subject: string) => t.outbox().filter((m) => m.to === email && m.subject.startsWith(subject));
const favourite = (token: string, trainerId: string) =>
  t.app.inject({ method: 'PUT', url: `/api/favorites/${trainerId}`, headers: auth(token) });

describe('releasing a paid session inside 24 hours', () => {
  it('frees its slot and tells who saved the trainer; somebody books it: the user is refunded in full, once', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const fan = await createAccount(t, 'user');
    expect((await favourite(fan.token, trainer.id)).statusCode).toBe(200);
    expect((await favourite(me.token, trainer.id)).statusCode).toBe(200);
    const slot = hourFromNow(5);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, slot);
    const before = (await t.app.inject({ url: '/api/bookings', headers: auth(me.token) })).json().bookings as TBooking[];
    expect(before.find((b) => b._id === bookingId)).toMatchObject({ canRelease: true, canCancel: false, releasedAt: null });

    const res = await release(me.token, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: BOOKING_MSG.released, booking: { status: 'confirmed', canRelease: false } });
    expect(res.json().booking.releasedAt).toEqual(expect.any(String));
    // still the user's, and paid, until somebody books it
    expect(await rowOf(bookingId)).toMatchObject({ status: 'confirmed' });
    await until(async () => (await slotsOf(t, trainer.id)).includes(slot), 'the released slot to be offered');
    // who saved the trainer is told; the user who released it is not
    expect(mailsTo(fan.email, 'A time opened up with')).toHaveLength(1);
    expect(mailsTo(fan.email, 'A time opened up with')[0].text).toContain('/trainer/profile/');
    expect(mailsTo(me.email, 'A time opened up with')).toEqual([]);

    // the fan books and pays it: the user who released it is refunded in full
    const { bookingId: resold } = await bookAndPay(t, fan.token, trainer.id, slot);
    await until(async () => (await rowOf(bookingId)).status === 'refunded', 'the released session to be refunded');
    const [refund] = await refundsOf(bookingId);
    expect(refund).toMatchObject({ status: 'completed' });
    const [payment] = await db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(refund.amountCents).toBe(payment.amountCents);
    expect(await rowOf(resold)).toMatchObject({ status: 'confirmed' });
    expect(mailsTo(me.email, 'Cancelled').at(-1)!.text).toContain('is refunded');

    // the refund job again (a retry, a second process): nothing more
    await t.app.jobs.enqueue(db, { kind: RELEASE_JOBS.refund, runAt: new Date(), payload: { bookingId } });
    await t.app.jobs.runDue();
    expect(await refundsOf(bookingId)).toHaveLength(1);
  });

  it('nobody books it: nothing changes, the session stays the user’s and paid', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(6));
    expect((await release(me.token, bookingId)).statusCode).toBe(200);
    expect(await rowOf(bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await refundsOf(bookingId)).toEqual([]);
    const again = await release(me.token, bookingId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BOOKING_MSG.alreadyReleased);
  });

  it('is offered to the waitlist first; the one offered pays, and the user is refunded', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const waiter = await createAccount(t, 'user');
    const slot = hourFromNow(7);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, slot);
    const joined = await t.app.inject({
      method: 'POST',
      url: '/api/waitlist',
      headers: auth(waiter.token),
      payload: { trainerId: trainer.id, from: hourFromNow(6), to: hourFromNow(9) },
    });
    expect(joined.statusCode).toBe(201);
    expect((await release(me.token, bookingId)).statusCode).toBe(200);
    let offer: TWaitlistEntry['offer'] = null;
    await until(async () => {
      await t.app.jobs.runDue();
      const [entry] = (await t.app.inject({ url: '/api/waitlist', headers: auth(waiter.token) })).json()
        .entries as TWaitlistEntry[];
      offer = entry.offer;
      return entry.status === 'offered';
    }, 'the waiter to be offered the released time');
    const order = await createOrder(t, waiter.token, { bookingId: offer!.bookingId });
    expect((await capture(t, waiter.token, order.json().id)).statusCode).toBe(200);
    await until(async () => (await rowOf(bookingId)).status === 'refunded', 'the released session to be refunded');
  });

  it('what cannot be released: more than 24 hours ahead, a hold, somebody else’s, a trainer', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const stranger = await createAccount(t, 'user');
    const { bookingId: far } = await bookAndPay(t, me.token, trainer.id, hourFromNow(40));
    const early = await release(me.token, far);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(BOOKING_MSG.releaseTooEarly);
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow(8) },
    });
    expect((await release(me.token, held.json().booking._id)).statusCode).toBe(409);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(9));
    expect((await release(stranger.token, bookingId)).statusCode).toBe(404);
    const byTrainer = await release(trainer.token, bookingId);
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json().message).toBe(BOOKING_MSG.onlyClientReleases);
    expect((await release(undefined, bookingId)).statusCode).toBe(401);
    expect((await rowOf(bookingId)).releasedAt).toBeNull();
    // nothing was queued to refund
    const queued = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, RELEASE_JOBS.refund.name), sql`${jobs.payload}->>'bookingId' = ${bookingId}`));
    expect(queued).toEqual([]);
  });
});

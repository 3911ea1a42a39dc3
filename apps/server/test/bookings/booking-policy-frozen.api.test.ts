// The policy frozen on each booking when it is made (docs/decisions/052-frozen-session-policy.md,
// docs/product.md#booking-and-payment): cancelling for a refund, moving, releasing, marking a no-show
// and what the booking answer says follow the session's own `bookings.policy`, not today's rules.
// Each test changes a paid session's stored policy behind the server's back, as a session booked
// under other terms would have it.
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG, BOOKING_RULES, type TBooking } from '@spotter/shared';
import { bookings, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, buildClockApp, cancel, hourFromNow } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const listOf = async (token: string, app = t.app) =>
  (await app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[];
const viewOf = async (token: string, id: string, app = t.app) => (await listOf(token, app)).find((b) => b._id === id)!;
const rowOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
const paymentOf = async (id: string) => (await db.select().from(payments).where(eq(payments.bookingId, id)))[0];
/** Stores a policy on the session as if it had been booked under it (null: booked before policies were frozen). */
const freeze = async (id: string, policy: object | null) => {
  await db.execute(sql`update bookings set policy = ${policy ? JSON.stringify(policy) : null}::jsonb where id = ${id}`);
};
/** A list read before the change is dropped once the database announces it (on PostgreSQL, a moment later). */
const seen = (token: string, id: string, check: (b: TBooking) => boolean) =>
  until(async () => check(await viewOf(token, id)), 'the list to show the stored policy');
const reschedule = (token: string, id: string, startsAt: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/reschedule`, headers: auth(token), payload: { startsAt } });
const release = (token: string, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/release`, headers: auth(token) });
const noShow = (token: string, id: string, app = t.app) =>
  app.inject({ method: 'POST', url: `/api/bookings/${id}/no-show`, headers: auth(token) });

describe('the policy frozen on a new booking', () => {
  it('is version 2, with today’s hours and the no-show window; the answer carries it', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(30));
    const policy = { version: 2, cancelHours: BOOKING_RULES.cancelHours, disputeHours: 48, noShowHours: 7 * 24 };
    expect((await rowOf(bookingId)).policy).toEqual(policy);
    expect((await viewOf(me.token, bookingId)).policy).toEqual(policy);
    expect((await viewOf(trainer.token, bookingId)).policy).toEqual(policy);
  });

  it('a session booked before policies were frozen reads version 1, whose no-show window is 7 days', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(30));
    await freeze(bookingId, null);
    await seen(me.token, bookingId, (b) => b.policy.version === 1);
    expect((await viewOf(me.token, bookingId)).policy).toEqual({
      version: 1,
      cancelHours: 24,
      disputeHours: 48,
      noShowHours: 168,
    });
    // and one frozen under version 1, without the no-show term, reads version 1's
    await freeze(bookingId, { version: 1, cancelHours: 24, disputeHours: 36 });
    await seen(me.token, bookingId, (b) => b.policy.disputeHours === 36);
    expect((await viewOf(me.token, bookingId)).policy).toEqual({
      version: 1,
      cancelHours: 24,
      disputeHours: 36,
      noShowHours: 168,
    });
  });
});

describe('a session sold with a longer cancellation window than today’s (48 hours)', () => {
  it('30 hours ahead: not refundable, cannot be moved, can be released; the answer says so', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(30);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    // under today's 24 hours it could be cancelled for a refund
    expect(await viewOf(me.token, bookingId)).toMatchObject({ isRefundable: true, canReschedule: true });
    await freeze(bookingId, { version: 2, cancelHours: 48, disputeHours: 48, noShowHours: 168 });
    await seen(me.token, bookingId, (b) => b.policy.cancelHours === 48);

    expect(await viewOf(me.token, bookingId)).toMatchObject({
      isRefundable: false,
      canCancel: false,
      cancellableUntil: null,
      canReschedule: false,
      canRelease: true,
      policy: { cancelHours: 48 },
    });
    const cancelled = await cancel(t, me.token, bookingId);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json()).toMatchObject({
      code: 'CANCEL_TOO_LATE',
      message: 'Sessions can be cancelled only up to 48 hours before they start',
    });
    const moved = await reschedule(me.token, bookingId, hourFromNow(60));
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({
      code: 'RESCHEDULE_TOO_LATE',
      message: 'Sessions can be moved only up to 48 hours before they start',
    });
    // still paid, at its time
    expect(await rowOf(bookingId)).toMatchObject({ status: 'confirmed', startsAt: new Date(startsAt) });
    expect((await paymentOf(bookingId)).status).toBe('completed');
    // inside its own 48 hours it can be given back for resale
    const released = await release(me.token, bookingId);
    expect(released.statusCode, released.body).toBe(200);
  });
});

describe('a session sold with a shorter cancellation window than today’s (12 hours)', () => {
  it('20 hours ahead: moved, with its deadline 12 hours before the new time, then cancelled and refunded in full', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(20);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    // under today's 24 hours it is too late
    expect(await viewOf(me.token, bookingId)).toMatchObject({ isRefundable: false, canReschedule: false });
    await freeze(bookingId, { version: 2, cancelHours: 12, disputeHours: 48, noShowHours: 168 });
    await seen(me.token, bookingId, (b) => b.policy.cancelHours === 12);

    expect(await viewOf(me.token, bookingId)).toMatchObject({
      isRefundable: true,
      canCancel: true,
      cancellableUntil: new Date(Date.parse(startsAt) - 12 * HOUR).toISOString(),
      canReschedule: true,
      canRelease: false,
    });
    // more than its 12 hours ahead: refunded instead of released
    const released = await release(me.token, bookingId);
    expect(released.statusCode).toBe(409);
    expect(released.json().message).toBe('More than 12 hours ahead a session is cancelled with a full refund instead');

    const to = hourFromNow(18);
    const moved = await reschedule(me.token, bookingId, to);
    expect(moved.statusCode, moved.body).toBe(200);
    const deadline = new Date(Date.parse(to) - 12 * HOUR).toISOString();
    expect(moved.json().booking).toMatchObject({ startsAt: to, cancellableUntil: deadline, isRefundable: true });
    // the moved session keeps the terms it was sold with
    expect((await rowOf(bookingId)).policy).toMatchObject({ cancelHours: 12 });
    // the mail of the move states its own deadline, in the shared words
    const mail = t.outbox().findLast((m) => m.to === me.email && m.subject.startsWith('Moved'))!;
    expect(mail.text).toMatch(/Free cancellation until \w{3} \d{1,2} \w{3}, \d{2}:00 \(UTC time\)/);
    const stated = /Free cancellation until \w{3} (\d{1,2}) \w{3}, (\d{2}):00/.exec(mail.text)!;
    expect([Number(stated[1]), Number(stated[2])]).toEqual([new Date(deadline).getUTCDate(), new Date(deadline).getUTCHours()]);

    const cancelled = await cancel(t, me.token, bookingId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ message: BOOKING_MSG.refunded, booking: { status: 'refunded' } });
    expect((await paymentOf(bookingId)).status).toBe('refunded');
  });
});

describe('the no-show window frozen on the session', () => {
  it('the trainer marks a no-show within the session’s own window after its end, not today’s 7 days; no money moves', async () => {
    const start = new Date('2027-03-01T06:00:00.000Z');
    const clock = await buildClockApp(t.database, t.config.jwtSecret, start);
    afterAll(() => clock.app.close());
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const paid = async (startsAt: string) => {
      clock.setNow(start);
      const held = await clock.app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: auth(me.token),
        payload: { trainerId: trainer.id, startsAt },
      });
      expect(held.statusCode, held.body).toBe(201);
      const id = held.json().booking._id as string;
      const order = await clock.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: auth(me.token),
        payload: { bookingId: id },
      });
      const captured = await clock.app.inject({
        method: 'POST',
        url: `/api/orders/${order.json().id}/capture`,
        headers: auth(me.token),
      });
      expect(captured.statusCode).toBe(200);
      return id;
    };
    const ends = Date.parse('2027-03-01T11:00:00.000Z');
    const short = await paid('2027-03-01T10:00:00.000Z');
    const old = await paid('2027-03-01T12:00:00.000Z');
    const longer = await paid('2027-03-01T13:00:00.000Z');
    await freeze(short, { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 24 });
    await freeze(old, null);
    await freeze(longer, { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 10 * 24 });

    // 20 hours after its end: the trainer may mark it; the schedule read then is not answered again
    // from memory once the session's own window closes
    clock.setNow(new Date(ends + 20 * HOUR));
    expect((await viewOf(trainer.token, short, clock.app)).canMarkNoShow).toBe(true);
    clock.setNow(new Date(ends + 25 * HOUR));
    expect((await viewOf(trainer.token, short, clock.app)).canMarkNoShow).toBe(false);
    const tooLate = await noShow(trainer.token, short, clock.app);
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().message).toBe(BOOKING_MSG.alreadyOver);
    // version 1 (no policy stored): 7 days
    expect((await viewOf(trainer.token, old, clock.app)).canMarkNoShow).toBe(true);

    // 8 days after: today's 7 days are over, the session's own 10 are not
    clock.setNow(new Date(ends + 8 * DAY));
    expect((await viewOf(trainer.token, old, clock.app)).canMarkNoShow).toBe(false);
    expect((await noShow(trainer.token, old, clock.app)).statusCode).toBe(409);
    expect((await viewOf(trainer.token, longer, clock.app)).canMarkNoShow).toBe(true);
    const marked = await noShow(trainer.token, longer, clock.app);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().booking).toMatchObject({ status: 'no-show', policy: { noShowHours: 240 } });
    // the outcome of a no-show: no money moves
    expect((await paymentOf(longer)).status).toBe('completed');
  });

  it('the user’s list changes by itself when the session’s own cancellation deadline passes', async () => {
    const start = new Date('2027-04-01T06:00:00.000Z');
    const clock = await buildClockApp(t.database, t.config.jwtSecret, start);
    afterAll(() => clock.app.close());
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const startsAt = '2027-04-02T02:00:00.000Z'; // 20 hours on
    const held = await clock.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt },
    });
    const id = held.json().booking._id as string;
    const order = await clock.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: auth(me.token),
      payload: { bookingId: id },
    });
    expect(
      (await clock.app.inject({ method: 'POST', url: `/api/orders/${order.json().id}/capture`, headers: auth(me.token) }))
        .statusCode,
    ).toBe(200);
    await freeze(id, { version: 2, cancelHours: 12, disputeHours: 48, noShowHours: 168 });
    expect((await viewOf(me.token, id, clock.app)).isRefundable).toBe(true);
    // a minute past its own deadline (12 hours before the start)
    clock.setNow(new Date(Date.parse(startsAt) - 12 * HOUR + 60_000));
    expect(await viewOf(me.token, id, clock.app)).toMatchObject({
      isRefundable: false,
      cancellableUntil: null,
      canRelease: true,
    });
  });
});

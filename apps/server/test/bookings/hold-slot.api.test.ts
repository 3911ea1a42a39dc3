// The hold-slot and release-hold use cases (src/modules/bookings/hold-slot.ts, release-hold.ts), through their routes.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, ROLE_MSG, SERVER_MSG } from '@spotter/shared';
import { bookings } from '../../src/db/schema';
import { createAccount, insertTrainer, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, hold, hourFromNow, slotsOf } from '../support/bookings';

const t = await useTestApp();
const db = t.database.db;
const user = await createAccount(t, 'user', { firstName: 'Laila', lastName: 'Samir' });
const HOUR = 60 * 60_000;

const bookingRow = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];

describe('POST /api/bookings', () => {
  it('visitors get 401 and trainers 403 with the spec toasts; nothing is held', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(30);
    const visitor = await hold(t, undefined, trainer.id, startsAt);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(ROLE_MSG.loginToBook);
    const other = await bookableTrainer(t);
    const byTrainer = await hold(t, other.token, trainer.id, startsAt);
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json().message).toBe(ROLE_MSG.trainersCantBook);
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
    expect(await db.select().from(bookings).where(eq(bookings.trainerId, trainer.id))).toEqual([]);
  });

  it('holds a free slot for 10 minutes at the trainer’s price; the slot leaves the free list', async () => {
    const trainer = await bookableTrainer(t, { price: 175 });
    const startsAt = hourFromNow(50);
    const before = Date.now();
    const res = await hold(t, user.token, trainer.id, startsAt);
    expect(res.statusCode).toBe(201);
    const { booking } = res.json();
    expect(booking).toMatchObject({
      trainerId: trainer.id,
      userId: user.id,
      startsAt,
      status: 'pending',
      price: 175,
      currency: 'USD',
      userFirstName: 'Laila',
    });
    const holdMs = Date.parse(booking.holdExpiresAt) - before;
    expect(holdMs).toBeGreaterThan(9 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    expect(Date.parse(booking.endsAt) - Date.parse(startsAt)).toBe(HOUR);
    expect(await slotsOf(t, trainer.id)).not.toContain(startsAt);
    expect((await bookingRow(booking._id)).priceCents).toBe(17500);
  });

  it('a slot already held or booked answers 409, even for the same user', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(40);
    const other = await createAccount(t, 'user');
    expect((await hold(t, user.token, trainer.id, startsAt)).statusCode).toBe(201);
    for (const token of [other.token, user.token]) {
      const again = await hold(t, token, trainer.id, startsAt);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(BOOKING_MSG.slotTaken);
    }
    const paid = await bookableTrainer(t);
    await bookAndPay(t, user.token, paid.id, startsAt);
    const late = await hold(t, other.token, paid.id, startsAt);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(BOOKING_MSG.slotTaken);
  });

  it('five users racing for one slot: exactly one 201 and four 409', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(72);
    const racers = await Promise.all(Array.from({ length: 5 }, () => createAccount(t, 'user')));
    const results = await Promise.all(racers.map((r) => hold(t, r.token, trainer.id, startsAt)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toBe(BOOKING_MSG.slotTaken);
    const live = await db
      .select()
      .from(bookings)
      .where(and(eq(bookings.trainerId, trainer.id), sql`status in ('pending', 'confirmed')`));
    expect(live).toHaveLength(1);
  });

  it('the database itself refuses a second live booking of one slot', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = new Date(hourFromNow(80));
    const values = {
      trainerId: trainer.id,
      userId: user.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + HOUR),
      priceCents: 20000,
      holdExpiresAt: new Date(Date.now() + 600_000),
    };
    await db.insert(bookings).values(values);
    await expect(db.insert(bookings).values(values)).rejects.toThrow();
    // a cancelled one does not count
    await db.insert(bookings).values({ ...values, status: 'cancelled' });
  });

  it.each([
    ['not on the hour', (s: string) => new Date(Date.parse(s) + 30 * 60_000).toISOString()],
    ['in the past', () => hourFromNow(-3)],
    ['more than 14 days ahead', () => hourFromNow(15 * 24)],
    ['outside the trainer’s hours', () => 'OFF-HOURS'],
  ])('a time that is not a free slot (%s) answers 400', async (_name, pick) => {
    const trainer = await bookableTrainer(t, { weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, hours: [9] })) });
    let startsAt = pick(hourFromNow(30));
    if (startsAt === 'OFF-HOURS') {
      const d = new Date(hourFromNow(48));
      d.setUTCHours(11);
      startsAt = d.toISOString();
    }
    const res = await hold(t, user.token, trainer.id, startsAt);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('startsAt');
  });

  it('rejects a malformed start time, and an unknown or unlisted trainer with 404', async () => {
    const trainer = await bookableTrainer(t);
    const bad = await hold(t, user.token, trainer.id, 'tomorrow at nine');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('startsAt');
    const hidden = await insertTrainer(t, { emailVerifiedAt: null });
    for (const id of [hidden.id, user.id, '6f1c2b9e-0000-4000-8000-000000000000', 'nope']) {
      const res = await hold(t, user.token, id, hourFromNow(30));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SERVER_MSG.trainerNotFound);
    }
  });

  it('an unverified user cannot book', async () => {
    const trainer = await bookableTrainer(t);
    const unverified = await createAccount(t, 'user', {}, { verify: false });
    const res = await hold(t, unverified.token, trainer.id, hourFromNow(30));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(BOOKING_MSG.verifyToBook);
  });

  it('one user holds at most three unpaid slots at once', async () => {
    const trainer = await bookableTrainer(t);
    const greedy = await createAccount(t, 'user');
    for (const h of [30, 31, 32]) expect((await hold(t, greedy.token, trainer.id, hourFromNow(h))).statusCode).toBe(201);
    const fourth = await hold(t, greedy.token, trainer.id, hourFromNow(33));
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().message).toBe(BOOKING_MSG.tooManyHolds);
  });

  it('a hold that ran out no longer blocks the slot, even before the job expires it', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(90);
    const me = await createAccount(t, 'user');
    const first = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, first));
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
    const other = await createAccount(t, 'user');
    expect((await hold(t, other.token, trainer.id, startsAt)).statusCode).toBe(201);
    expect((await bookingRow(first)).status).toBe('expired');
  });
});

describe('holding a slot again', () => {
  const MINUTE = 60_000;
  /** A refused re-hold: 409 HOLD_COOLDOWN with the minutes left and a Retry-After of the seconds left. */
  const expectCooldown = (res: Awaited<ReturnType<typeof hold>>, atMostMinutes = 10) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'HOLD_COOLDOWN', statusCode: 409 });
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(atMostMinutes * 60);
    expect(res.json().message).toBe(BOOKING_MSG.holdCooldown(Math.ceil(seconds / 60)));
  };

  it('a user who released a hold cannot hold that slot for 10 minutes; it is free for anyone else at once', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(101);
    const me = await createAccount(t, 'user');
    const first = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
    expect((await cancel(t, me.token, first)).statusCode).toBe(200);
    const again = await hold(t, me.token, trainer.id, startsAt);
    expectCooldown(again);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(9 * 60);
    expect(again.json().message).toBe(BOOKING_MSG.holdCooldown(10));
    // nothing was held by the refusal: the slot is on the free list, and another user takes it
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
    const other = await createAccount(t, 'user');
    const taken = await hold(t, other.token, trainer.id, startsAt);
    expect(taken.statusCode).toBe(201);
    // other slots stay open to the user who released this one
    expect((await hold(t, me.token, trainer.id, hourFromNow(102))).statusCode).toBe(201);
  });

  it('the wait counts from the release: 4 minutes after it, 6 are left; after 10 the user may hold it again', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(103);
    const me = await createAccount(t, 'user');
    const first = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
    expect((await cancel(t, me.token, first)).statusCode).toBe(200);
    await db
      .update(bookings)
      .set({ cancelledAt: new Date(Date.now() - 4 * MINUTE) })
      .where(eq(bookings.id, first));
    const early = await hold(t, me.token, trainer.id, startsAt);
    expectCooldown(early, 6);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(5 * 60);
    await db
      .update(bookings)
      .set({ cancelledAt: new Date(Date.now() - 10 * MINUTE - 1000) })
      .where(eq(bookings.id, first));
    expect((await hold(t, me.token, trainer.id, startsAt)).statusCode).toBe(201);
  });

  it('a hold that ran out unpaid has the same wait, whether or not the job has expired it yet', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    // run out, still 'pending' (the job has not come yet)
    const lapsedAt = hourFromNow(104);
    const lapsed = (await hold(t, me.token, trainer.id, lapsedAt)).json().booking._id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 2 * MINUTE) })
      .where(eq(bookings.id, lapsed));
    expectCooldown(await hold(t, me.token, trainer.id, lapsedAt), 8);
    // expired by the job a minute ago
    const expiredAt = hourFromNow(105);
    const expired = (await hold(t, me.token, trainer.id, expiredAt)).json().booking._id;
    await db
      .update(bookings)
      .set({ status: 'expired', holdExpiresAt: null, updatedAt: new Date(Date.now() - MINUTE) })
      .where(eq(bookings.id, expired));
    expectCooldown(await hold(t, me.token, trainer.id, expiredAt), 9);
    for (const startsAt of [lapsedAt, expiredAt]) expect((await hold(t, other.token, trainer.id, startsAt)).statusCode).toBe(201);
  });

  it('a paid and refunded session does not wait: the user may book the slot again', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(106);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    expect((await cancel(t, me.token, bookingId)).json().booking.status).toBe('refunded');
    expect((await hold(t, me.token, trainer.id, startsAt)).statusCode).toBe(201);
  });

  it('a release racing a hold of the same slot by the same user never leaves both done', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    for (let i = 0; i < 8; i++) {
      const startsAt = hourFromNow(110 + i);
      const first = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
      const [released, again] = await Promise.all([cancel(t, me.token, first), hold(t, me.token, trainer.id, startsAt)]);
      expect(released.statusCode).toBe(200);
      // before the release: the slot is still the user's own live hold; after it: the wait
      expect(again.statusCode).toBe(409);
      expect(['SLOT_TAKEN', 'HOLD_COOLDOWN']).toContain(again.json().code);
      const live = await db
        .select()
        .from(bookings)
        .where(and(eq(bookings.trainerId, trainer.id), eq(bookings.startsAt, new Date(startsAt)), sql`status = 'pending'`));
      expect(live).toEqual([]);
    }
  });
});

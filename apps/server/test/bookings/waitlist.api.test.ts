// The waitlist (docs/product.md#waitlist, waitlist.ts, offer-freed-slot.ts): a user waits for a time
// of a trainer; a slot freed in that window, however it was freed, is held for the first in line for
// 30 minutes, then for the next.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WAITLIST_MSG, WAITLIST_RULES, type TBooking, type TWaitlistEntry } from '@spotter/shared';
import { bookings } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow, slotsOf } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const join = (token: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/waitlist', headers: auth(token), payload: payload as object });
const waits = async (token: string) =>
  (await t.app.inject({ url: '/api/waitlist', headers: auth(token) })).json().entries as TWaitlistEntry[];
const leave = (token: string | undefined, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/waitlist/${id}`, headers: auth(token) });
const bookingsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[];
const mailsTo = (email: string, subject: string) => t.outbox().filter((m) => m.to === email && m.subject.startsWith(subject));
const liveAt = async (trainerId: string, startsAt: string) =>
  db
    .select({ id: bookings.id, userId: bookings.userId, status: bookings.status, holdExpiresAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.trainerId, trainerId),
        sql`${bookings.startsAt} = ${startsAt}::timestamptz`,
        sql`${bookings.status} in ('pending', 'confirmed')`,
      ),
    );
/** The jobs' clock: each test moves it further than the last (jobs of earlier tests may be due). */
let clock = Date.now();
const runJobsAt = async (ms: number) => {
  clock = Math.max(clock, ms);
  // the offer a freed slot queues is due at once: run until nothing is left at this time
  while ((await t.app.jobs.runDue({ now: new Date(clock) })) > 0);
};

describe('joining, listing and leaving', () => {
  it('a user joins for a window and sees it; leaves it; the answers are personal', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const res = await join(me.token, { trainerId: trainer.id, from: hourFromNow(30), to: hourFromNow(34) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: WAITLIST_MSG.joined,
      entry: { trainerId: trainer.id, from: hourFromNow(30), to: hourFromNow(34), status: 'waiting', offer: null },
    });
    const list = await t.app.inject({ url: '/api/waitlist', headers: auth(me.token) });
    expect(list.headers['cache-control']).toContain('no-store');
    expect(list.json().entries).toHaveLength(1);
    const id = res.json().entry._id as string;
    const stranger = await createAccount(t, 'user');
    expect((await leave(stranger.token, id)).statusCode).toBe(404);
    expect(await waits(stranger.token)).toEqual([]);
    const left = await leave(me.token, id);
    expect(left.statusCode).toBe(200);
    expect(left.json().message).toBe(WAITLIST_MSG.left);
    expect(await waits(me.token)).toEqual([]);
    expect((await leave(me.token, id)).statusCode).toBe(404);
  });

  it('refuses what cannot be waited for, in the product’s words', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const w = (from: number, to: number) => ({ trainerId: trainer.id, from: hourFromNow(from), to: hourFromNow(to) });
    expect((await join(undefined, w(30, 34))).statusCode).toBe(401);
    expect((await join(trainer.token, w(30, 34))).statusCode).toBe(403);
    expect((await join(me.token, { ...w(30, 34), trainerId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await join(me.token, { ...w(30, 34), trainerId: 'nope' })).statusCode).toBe(404);
    const short = await join(me.token, {
      trainerId: trainer.id,
      from: hourFromNow(30),
      to: new Date(Date.parse(hourFromNow(30)) + 30 * MINUTE).toISOString(),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { to: WAITLIST_MSG.windowOrder } });
    expect((await join(me.token, w(-10, -5))).json()).toMatchObject({ errors: { to: WAITLIST_MSG.windowPast } });
    expect((await join(me.token, w(24 * 15, 24 * 15 + 2))).json()).toMatchObject({ errors: { from: WAITLIST_MSG.windowFar } });
    for (const bad of [{}, { trainerId: trainer.id, from: 'soon', to: hourFromNow(3) }, null]) {
      expect((await join(me.token, bad)).statusCode).toBe(400);
    }
    expect((await join(me.token, w(30, 34))).statusCode).toBe(201);
    const again = await join(me.token, w(33, 36));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(WAITLIST_MSG.already);
    for (let i = 1; i < WAITLIST_RULES.maxEntries; i++)
      expect((await join(me.token, w(40 + i * 5, 42 + i * 5))).statusCode).toBe(201);
    const tooMany = await join(me.token, w(100, 102));
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toBe(WAITLIST_MSG.tooMany);
  });
});

describe('a freed slot', () => {
  it('goes to a waitlist of three in order, each for 30 minutes, and stays free when all let it lapse', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const slot = hourFromNow(60);
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slot);
    const line = [await createAccount(t, 'user'), await createAccount(t, 'user'), await createAccount(t, 'user')];
    for (const who of line)
      expect((await join(who.token, { trainerId: trainer.id, from: hourFromNow(58), to: hourFromNow(64) })).statusCode).toBe(201);

    // the owner cancels for a refund: the slot is freed, and held for the first in line
    expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    const start = Math.max(clock, Date.now());
    await runJobsAt(start);
    for (const [i, who] of line.entries()) {
      const [held] = await liveAt(trainer.id, slot);
      expect(held).toMatchObject({ userId: who.id, status: 'pending' });
      // 30 minutes from the offer, on the jobs' clock
      expect(held.holdExpiresAt!.getTime()).toBe(clock + WAITLIST_RULES.offerMinutes * MINUTE);
      const [entry] = await waits(who.token);
      expect(entry).toMatchObject({ status: 'offered', offer: { startsAt: slot, bookingId: held.id } });
      // the one offered sees it as their hold, with 'Continue to payment', and a mail
      expect((await bookingsOf(who.token)).find((b) => b._id === held.id)).toMatchObject({ status: 'pending' });
      const [mail] = mailsTo(who.email, 'A time opened up with');
      expect(mail.text).toContain('It is held for you until');
      expect(mail.text).toMatch(/\/trainer\/profile\/[0-9a-f-]+/);
      // the ones after are still waiting, with no mail
      for (const later of line.slice(i + 1)) {
        expect((await waits(later.token))[0]).toMatchObject({ status: 'waiting', offer: null });
        expect(mailsTo(later.email, 'A time opened up')).toEqual([]);
      }
      // the 30 minutes run out: the next one gets it
      await runJobsAt(clock + WAITLIST_RULES.offerMinutes * MINUTE + MINUTE);
      // who let it lapse waits on, for other times
      expect((await waits(who.token))[0]).toMatchObject({ status: 'waiting', offer: null });
    }
    // everyone had their turn: the slot is free for anyone
    expect(await liveAt(trainer.id, slot)).toEqual([]);
    await until(async () => (await slotsOf(t, trainer.id)).includes(slot), 'the slot to be free');
  });

  it('the one offered pays for it like any hold: booked, and off the line', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const waiter = await createAccount(t, 'user');
    const slot = hourFromNow(70);
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slot);
    expect((await join(waiter.token, { trainerId: trainer.id, from: hourFromNow(70), to: hourFromNow(71) })).statusCode).toBe(
      201,
    );
    expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    await runJobsAt(Date.now());
    const [entry] = await waits(waiter.token);
    expect(entry.status).toBe('offered');
    const order = await createOrder(t, waiter.token, { bookingId: entry.offer!.bookingId });
    expect(order.statusCode).toBe(200);
    expect((await capture(t, waiter.token, order.json().id)).statusCode).toBe(200);
    expect((await waits(waiter.token))[0]).toMatchObject({ status: 'booked', offer: { startsAt: slot, holdExpiresAt: null } });
    expect((await bookingsOf(waiter.token)).find((b) => b._id === entry.offer!.bookingId)).toMatchObject({ status: 'confirmed' });
  });

  it('however it is freed: a move away, a hold that ran out, SQL by hand; not outside the window', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const waiter = await createAccount(t, 'user');
    const slotA = hourFromNow(80);
    const slotB = hourFromNow(84);
    expect((await join(waiter.token, { trainerId: trainer.id, from: hourFromNow(79), to: hourFromNow(86) })).statusCode).toBe(
      201,
    );
    // moved away from A to a time outside the window: A is offered
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slotA);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${bookingId}/reschedule`,
      headers: auth(owner.token),
      payload: { startsAt: hourFromNow(100) },
    });
    expect(moved.statusCode).toBe(200);
    await runJobsAt(Date.now());
    expect((await liveAt(trainer.id, slotA))[0]).toMatchObject({ userId: waiter.id, status: 'pending' });
    // the waiter releases it: A goes to nobody else (no one else waits) and stays free
    const offered = (await liveAt(trainer.id, slotA))[0].id;
    expect((await cancel(t, waiter.token, offered)).statusCode).toBe(200);
    await runJobsAt(clock + MINUTE);
    expect(await liveAt(trainer.id, slotA)).toEqual([]);

    // a session cancelled with SQL by hand: B is offered to the waiter (a new time for them)
    const other = await createAccount(t, 'user');
    const { bookingId: onB } = await bookAndPay(t, other.token, trainer.id, slotB);
    await db.update(bookings).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(bookings.id, onB));
    await runJobsAt(clock + MINUTE);
    expect((await liveAt(trainer.id, slotB))[0]).toMatchObject({ userId: waiter.id, status: 'pending' });

    // a hold outside every window ran out: nothing is offered
    const outside = hourFromNow(110);
    const holder = await createAccount(t, 'user');
    expect((await hold(t, holder.token, trainer.id, outside)).statusCode).toBe(201);
    await runJobsAt(clock + 15 * MINUTE);
    expect(await liveAt(trainer.id, outside)).toEqual([]);
  });

  it('a waiter who left is not offered anything; a slot freed once it is inside the notice is not offered', async () => {
    const trainer = await bookableTrainer(t, { minNoticeHours: 12 });
    const owner = await createAccount(t, 'user');
    const gone = await createAccount(t, 'user');
    const slot = hourFromNow(90);
    const entry = (await join(gone.token, { trainerId: trainer.id, from: hourFromNow(89), to: hourFromNow(92) })).json().entry;
    expect((await leave(gone.token, entry._id)).statusCode).toBe(200);
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slot);
    expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    await runJobsAt(clock + MINUTE);
    expect(await liveAt(trainer.id, slot)).toEqual([]);
    expect(mailsTo(gone.email, 'A time opened up')).toEqual([]);

    // a hold 13 hours ahead runs out when the jobs' clock is 3 hours on: 10 hours ahead is inside the notice
    const waiter = await createAccount(t, 'user');
    const near = hourFromNow(13);
    expect((await join(waiter.token, { trainerId: trainer.id, from: hourFromNow(12), to: hourFromNow(15) })).statusCode).toBe(
      201,
    );
    const holder = await createAccount(t, 'user');
    expect((await hold(t, holder.token, trainer.id, near)).statusCode).toBe(201);
    await runJobsAt(Math.max(clock, Date.now() + 3 * HOUR));
    expect(await liveAt(trainer.id, near)).toEqual([]);
    expect(mailsTo(waiter.email, 'A time opened up')).toEqual([]);
  });
});

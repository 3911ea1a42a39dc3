// Moving a paid session (docs/product.md#moving-a-session, reschedule-booking.ts): its user, more
// than 24 hours ahead, to another free slot of the same trainer, atomically; no money moves; both
// people mailed with an .ics that updates the same event; the reminders and the completion follow.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, type TBooking } from '@spotter/shared';
import { bookings, ledgerTransactions, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, hold, hourFromNow, mimePart, outboxEml, slotsOf } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const reschedule = (token: string | undefined, id: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/reschedule`, headers: auth(token), payload: payload as object });
const listOf = async (token: string) =>
  (await t.app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[];
const rowOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
const mailsTo = (email: string, subject: string) => t.outbox().filter((m) => m.to === email && m.subject.startsWith(subject));
const icsOf = (email: string, subject: string) =>
  outboxEml(t)
    .filter((e) => e.includes(`To: ${email}`) && e.includes(`Subject: ${subject}`))
    .map((e) => mimePart(e, 'text/calendar')!.replace(/\r\n /g, ''));
const icsDate = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('moving a paid session', () => {
  it('moves it to the new slot: the old one is free, no money moves, both people get the update with the same UID and a higher SEQUENCE', async () => {
    const trainer = await bookableTrainer(t, { location: { kind: 'address', text: '5 Nile St' } });
    const me = await createAccount(t, 'user');
    const from = hourFromNow(50);
    const to = hourFromNow(75);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    const [before] = await db.select().from(payments).where(eq(payments.bookingId, bookingId));
    const ledgerBefore = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.bookingId, bookingId));
    expect((await listOf(me.token)).find((b) => b._id === bookingId)).toMatchObject({ canReschedule: true });

    const res = await reschedule(me.token, bookingId, { startsAt: to });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toMatch(/^Your session is moved to \w{3} \d{1,2} \w{3}, \d{2}:00 \(UTC/);
    expect(body.booking).toMatchObject({
      _id: bookingId,
      status: 'confirmed',
      startsAt: to,
      endsAt: new Date(Date.parse(to) + HOUR).toISOString(),
      cancellableUntil: new Date(Date.parse(to) - 24 * HOUR).toISOString(),
      canReschedule: true,
      location: { kind: 'address', text: '5 Nile St' },
    });
    expect(res.headers['cache-control']).toContain('no-store');
    // what the server stored: the same booking, its new time, its calendar revision
    expect(await rowOf(bookingId)).toMatchObject({ startsAt: new Date(to), status: 'confirmed', sequence: 1 });
    // both sides' lists, and the slots anyone sees
    expect((await listOf(me.token)).find((b) => b._id === bookingId)!.startsAt).toBe(to);
    expect((await listOf(trainer.token)).find((b) => b._id === bookingId)!.startsAt).toBe(to);
    await until(async () => {
      const slots = await slotsOf(t, trainer.id);
      return slots.includes(from) && !slots.includes(to);
    }, 'the old slot to be free and the new one taken');
    // no money moved
    expect((await db.select().from(payments).where(eq(payments.bookingId, bookingId)))[0]).toEqual(before);
    expect(await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.bookingId, bookingId))).toEqual(ledgerBefore);

    // both people: a mail naming both times, with a calendar file for the same event, one revision up
    const [mine] = mailsTo(me.email, 'Moved: your session with');
    expect(mine.text).toMatch(/Your session with .+ on .+ is moved to .+\. Place: 5 Nile St\./);
    expect(mine.text).toContain('Free cancellation until');
    expect(mine.text).toMatch(/See, move or cancel it in your sessions: http\S+/);
    const [theirs] = mailsTo(trainer.email, 'Moved: session with');
    expect(theirs.text).toMatch(/ moved the session booked with you on .+ to .+\./);
    for (const [email, subject] of [
      [me.email, 'Moved'],
      [trainer.email, 'Moved'],
    ]) {
      const [ics] = icsOf(email, subject);
      expect(ics).toContain(`UID:booking-${bookingId}@spotter\r\n`);
      expect(ics).toContain('SEQUENCE:1\r\n');
      expect(ics).toContain(`DTSTART:${icsDate(to)}\r\n`);
      expect(ics).toContain('METHOD:PUBLISH');
      expect(ics).toContain('LOCATION:5 Nile St');
    }
    // the confirmation's file was revision 0 of the same event
    expect(icsOf(me.email, 'Booked')[0]).toContain('SEQUENCE:0\r\n');
  });

  it('moves it again and then cancels it: each file is one revision above the last', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(52));
    expect((await reschedule(me.token, bookingId, { startsAt: hourFromNow(77) })).statusCode).toBe(200);
    expect((await reschedule(me.token, bookingId, { startsAt: hourFromNow(78) })).statusCode).toBe(200);
    expect(icsOf(me.email, 'Moved').map((ics) => ics.match(/SEQUENCE:(\d+)/)![1])).toEqual(['1', '2']);
    expect((await cancel(t, me.token, bookingId)).statusCode).toBe(200);
    const [cancelled] = icsOf(me.email, 'Cancelled');
    expect(cancelled).toContain('SEQUENCE:3\r\n');
    expect(cancelled).toContain('METHOD:CANCEL');
    expect(cancelled).toContain(`DTSTART:${icsDate(hourFromNow(78))}`);
  });

  it('into the last 24 hours: allowed, and after it the session can neither be moved nor cancelled for a refund', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(54));
    const res = await reschedule(me.token, bookingId, { startsAt: hourFromNow(6) });
    expect(res.statusCode).toBe(200);
    expect(res.json().booking).toMatchObject({ canReschedule: false, cancellableUntil: null, canCancel: false });
    const again = await reschedule(me.token, bookingId, { startsAt: hourFromNow(60) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'RESCHEDULE_TOO_LATE', message: BOOKING_MSG.rescheduleTooLate });
  });
});

describe('what cannot be moved', () => {
  it('a session inside 24 hours: 409 and it stays', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const from = hourFromNow(5);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    expect((await listOf(me.token)).find((b) => b._id === bookingId)).toMatchObject({ canReschedule: false });
    const res = await reschedule(me.token, bookingId, { startsAt: hourFromNow(60) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'RESCHEDULE_TOO_LATE', message: BOOKING_MSG.rescheduleTooLate });
    expect((await rowOf(bookingId)).startsAt).toEqual(new Date(from));
  });

  it('a hold not paid yet, a cancelled session: 409; the trainer: 403; anyone else: 404; nobody: 401', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const stranger = await createAccount(t, 'user');
    const held = (await hold(t, me.token, trainer.id, hourFromNow(56))).json().booking._id as string;
    const pending = await reschedule(me.token, held, { startsAt: hourFromNow(80) });
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ code: 'BOOKING_CLOSED', message: BOOKING_MSG.rescheduleNotPaid });

    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(57));
    const byTrainer = await reschedule(trainer.token, bookingId, { startsAt: hourFromNow(81) });
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json()).toMatchObject({ code: 'FORBIDDEN_ROLE', message: BOOKING_MSG.onlyClientMoves });
    expect((await reschedule(stranger.token, bookingId, { startsAt: hourFromNow(81) })).statusCode).toBe(404);
    expect((await reschedule(undefined, bookingId, { startsAt: hourFromNow(81) })).statusCode).toBe(401);
    expect((await reschedule(me.token, 'not-an-id', { startsAt: hourFromNow(81) })).statusCode).toBe(404);
    expect((await reschedule(me.token, '00000000-0000-4000-8000-000000000000', { startsAt: hourFromNow(81) })).statusCode).toBe(
      404,
    );

    expect((await cancel(t, me.token, bookingId)).statusCode).toBe(200);
    const closed = await reschedule(me.token, bookingId, { startsAt: hourFromNow(81) });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'BOOKING_CLOSED', message: BOOKING_MSG.alreadyOver });
    expect((await rowOf(bookingId)).status).toBe('refunded');
  });

  it('a time that is not a free slot of the trainer: 400 on the field; a taken one: 409; nothing changes', async () => {
    const weekdays = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [8, 9, 10, 11, 12] }));
    const trainer = await bookableTrainer(t, { weekly: weekdays });
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const day = (days: number, hour: number) => {
      const d = new Date(Date.now() + days * 24 * HOUR);
      d.setUTCHours(hour, 0, 0, 0);
      return d.toISOString();
    };
    const from = day(3, 9);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    await bookAndPay(t, other.token, trainer.id, day(4, 10));

    const same = await reschedule(me.token, bookingId, { startsAt: from });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ errors: { startsAt: BOOKING_MSG.rescheduleSameTime } });
    const offHours = await reschedule(me.token, bookingId, { startsAt: day(4, 20) });
    expect(offHours.statusCode).toBe(400);
    expect(offHours.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { startsAt: BOOKING_MSG.notASlot } });
    const halfPast = await reschedule(me.token, bookingId, { startsAt: day(4, 11).replace(':00:00', ':30:00') });
    expect(halfPast.statusCode).toBe(400);
    const beyond = await reschedule(me.token, bookingId, { startsAt: day(40, 9) });
    expect(beyond.statusCode).toBe(400);
    const taken = await reschedule(me.token, bookingId, { startsAt: day(4, 10) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SLOT_TAKEN', message: BOOKING_MSG.slotTaken });
    for (const payload of [{}, { startsAt: 'tomorrow' }, { startsAt: 12 }, null]) {
      const bad = await reschedule(me.token, bookingId, payload);
      expect(bad.statusCode).toBe(400);
    }
    expect(await rowOf(bookingId)).toMatchObject({ startsAt: new Date(from), sequence: 0 });
    expect(mailsTo(me.email, 'Moved')).toEqual([]);
  });

  it('the buffer: a session can move next to its own old time, not next to somebody else’s session', async () => {
    const trainer = await bookableTrainer(t, { bufferMinutes: 30 });
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const from = hourFromNow(60);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    await bookAndPay(t, other.token, trainer.id, hourFromNow(64));
    const next = new Date(Date.parse(from) + HOUR).toISOString();
    expect((await reschedule(me.token, bookingId, { startsAt: next })).statusCode).toBe(200);
    // an hour before the other's session: inside its 30 minutes
    const nearOther = await reschedule(me.token, bookingId, { startsAt: hourFromNow(63) });
    expect(nearOther.statusCode).toBe(400);
    expect(nearOther.json()).toMatchObject({ errors: { startsAt: BOOKING_MSG.notASlot } });
    expect((await rowOf(bookingId)).startsAt).toEqual(new Date(next));
  });
});

describe('racing for the new slot', () => {
  it('a move and a hold, and two moves, for the same slot: one winner each time; the loser keeps its own time', async () => {
    const trainer = await bookableTrainer(t);
    for (let round = 0; round < 4; round++) {
      const a = await createAccount(t, 'user');
      const b = await createAccount(t, 'user');
      const fromA = hourFromNow(90 + round * 4);
      const fromB = hourFromNow(91 + round * 4);
      const target = hourFromNow(92 + round * 4);
      const { bookingId: idA } = await bookAndPay(t, a.token, trainer.id, fromA);
      const { bookingId: idB } = await bookAndPay(t, b.token, trainer.id, fromB);
      const c = await createAccount(t, 'user');
      const answers = await Promise.all([
        reschedule(a.token, idA, { startsAt: target }),
        round % 2 ? reschedule(b.token, idB, { startsAt: target }) : hold(t, c.token, trainer.id, target),
      ]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes[1] === 409 && [200, 201].includes(codes[0])).toBe(true);
      const live = await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(
          sql`${bookings.trainerId} = ${trainer.id} and ${bookings.startsAt} = ${target}::timestamptz and ${bookings.status} in ('pending', 'confirmed')`,
        );
      expect(live).toHaveLength(1);
      // the loser of a move is where it was
      if (answers[0].statusCode === 409) expect((await rowOf(idA)).startsAt).toEqual(new Date(fromA));
      if (round % 2 && answers[1].statusCode === 409) expect((await rowOf(idB)).startsAt).toEqual(new Date(fromB));
    }
  });

  it('the same session moved twice at once: each move that is answered 200 is one revision, none is lost, nothing is left behind', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const from = hourFromNow(110);
    const targets = [hourFromNow(111), hourFromNow(112)];
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    const answers = await Promise.all(targets.map((startsAt) => reschedule(me.token, bookingId, { startsAt })));
    // run one after the other, both moves are fine; at once, the second finds it moved (409)
    const moved = answers.filter((r) => r.statusCode === 200);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(moved.length).toBeGreaterThan(0);
    const row = await rowOf(bookingId);
    expect(row.sequence).toBe(moved.length);
    expect(targets).toContain(row.startsAt.toISOString());
    // the times it no longer has are free
    await until(async () => {
      const slots = await slotsOf(t, trainer.id);
      return [from, ...targets].filter((s) => s !== row.startsAt.toISOString()).every((s) => slots.includes(s));
    }, 'the times the session left to be free');
  });
});

// last: these jobs run with clocks days ahead
describe('reminders and completion after a move', () => {
  it('the old time gets no reminder and no completion; the new time gets both', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const from = hourFromNow(200);
    const to = hourFromNow(250);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, from);
    expect((await reschedule(me.token, bookingId, { startsAt: to })).statusCode).toBe(200);
    const oldStart = Date.parse(from);
    const newStart = Date.parse(to);
    await t.app.jobs.runDue({ now: new Date(oldStart - 24 * HOUR + MINUTE) });
    expect(mailsTo(me.email, 'Tomorrow')).toEqual([]);
    await t.app.jobs.runDue({ now: new Date(oldStart + HOUR + MINUTE) });
    expect((await rowOf(bookingId)).status).toBe('confirmed');
    await t.app.jobs.runDue({ now: new Date(newStart - 24 * HOUR + MINUTE) });
    expect(mailsTo(me.email, 'Tomorrow')).toHaveLength(1);
    expect(mailsTo(trainer.email, 'Tomorrow')).toHaveLength(1);
    expect(mailsTo(me.email, 'Tomorrow')[0].text).toContain(`A reminder of your session with`);
    await t.app.jobs.runDue({ now: new Date(newStart + HOUR + MINUTE) });
    expect((await rowOf(bookingId)).status).toBe('completed');
  });
});

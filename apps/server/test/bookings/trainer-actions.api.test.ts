// The trainer's side of a booking (docs/product.md#booking-and-payment): cancelling any time before
// the start with a full refund and a reason (cancel-booking.ts, refund-booking.ts), marking a no-show
// (mark-no-show.ts), and each side's view of the booking (booking-view.ts).
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG, cancellationPolicy, type TBooking } from '@spotter/shared';
import { bookings, payments } from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import {
  auth,
  bookableTrainer,
  bookAndPay,
  buildClockApp,
  cancel,
  hold,
  hourFromNow,
  mimePart,
  outboxEml,
} from '../support/bookings';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 3600_000;

const listOf = async (token: string) =>
  (await t.app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[];
const viewOf = async (token: string, id: string) => (await listOf(token)).find((b) => b._id === id)!;
const noShow = (token: string | undefined, id: string, app = t.app) =>
  app.inject({ method: 'POST', url: `/api/bookings/${id}/no-show`, headers: auth(token) });
const paymentOf = async (bookingId: string) => (await db.select().from(payments).where(eq(payments.bookingId, bookingId)))[0];

describe('the trainer cancels', () => {
  it('inside 24 hours: refunded in full through the provider; the user sees who cancelled and why', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(5));
    // the user cannot: inside 24 hours
    const mine = await cancel(t, me.token, bookingId);
    expect(mine.statusCode).toBe(409);
    expect(mine.json().message).toBe(BOOKING_MSG.tooLateToCancel);

    const res = await cancel(t, trainer.token, bookingId, { reason: '  I am ill, sorry ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: BOOKING_MSG.trainerCancelled,
      booking: { status: 'refunded', cancelledBy: 'trainer', cancelReason: 'I am ill, sorry', canCancel: false },
    });
    const payment = await paymentOf(bookingId);
    expect(payment).toMatchObject({ status: 'refunded', provider: 'demo' });
    expect(payment.refundId).toMatch(/^DEMO-REFUND-/);
    expect(await viewOf(me.token, bookingId)).toMatchObject({
      status: 'refunded',
      cancelledBy: 'trainer',
      cancelReason: 'I am ill, sorry',
      cancellableUntil: null,
    });
    const mail = t.outbox().find((m) => m.to === me.email && m.subject.startsWith('Cancelled'))!;
    expect(mail.text).toMatch(/\S cancelled your session on /);
    expect(mail.text).toContain('Reason: I am ill, sorry.');
    expect(mail.text).toContain('The payment of $200.00 is refunded in full.');
  });

  it('without a body or a reason, as the spec client sends it', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(3));
    const res = await cancel(t, trainer.token, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json().booking).toMatchObject({ status: 'refunded', cancelledBy: 'trainer', cancelReason: null });
    expect(await cancel(t, trainer.token, bookingId, { reason: 'x'.repeat(501) })).toMatchObject({ statusCode: 400 });
  });

  it("a user's cancellation is the user's: 3 days ahead, refunded, no reason kept", async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(72));
    const res = await cancel(t, me.token, bookingId, { reason: 'changed my mind' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: BOOKING_MSG.refunded,
      booking: { status: 'refunded', cancelledBy: 'user', cancelReason: null },
    });
    expect((await viewOf(trainer.token, bookingId)).cancelledBy).toBe('user');
  });
});

describe("each side's view", () => {
  it("the trainer's zone and place, the cancellation deadline, and who may cancel", async () => {
    const trainer = await bookableTrainer(t, {
      timeZone: 'Asia/Tokyo',
      location: { kind: 'online', text: 'https://meet.example.com/k' },
    });
    const me = await createAccount(t, 'user');
    const far = hourFromNow(50);
    const near = hourFromNow(6);
    const { bookingId: farId } = await bookAndPay(t, me.token, trainer.id, far);
    const { bookingId: nearId } = await bookAndPay(t, me.token, trainer.id, near);
    const held = (await hold(t, me.token, trainer.id, hourFromNow(80))).json().booking as TBooking;
    // a later change of the trainer's place does not move booked sessions
    await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/availability',
      headers: auth(trainer.token),
      payload: { timeZone: 'Asia/Tokyo', weekly: [{ weekday: 1, hours: [9] }], location: { kind: 'client', text: '' } },
    });
    const farView = await viewOf(me.token, farId);
    expect(farView).toMatchObject({
      timeZone: 'Asia/Tokyo',
      location: { kind: 'online', text: 'https://meet.example.com/k' },
      cancellableUntil: new Date(Date.parse(far) - 24 * HOUR).toISOString(),
      canCancel: true,
      canMarkNoShow: false,
    });
    expect(await viewOf(me.token, nearId)).toMatchObject({ cancellableUntil: null, canCancel: false, isRefundable: false });
    expect(await viewOf(trainer.token, nearId)).toMatchObject({ cancellableUntil: null, canCancel: true, canMarkNoShow: false });
    // a hold: its deadline too
    expect(held.cancellableUntil).toBe(new Date(Date.parse(held.startsAt) - 24 * HOUR).toISOString());
  });
});

describe('POST /api/bookings/:id/no-show', () => {
  it('before the start, for a hold, for the user or a stranger: refused in the product’s words', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(4));
    const early = await noShow(trainer.token, bookingId);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(BOOKING_MSG.noShowTooEarly);
    const byUser = await noShow(me.token, bookingId);
    expect(byUser.statusCode).toBe(403);
    expect(byUser.json().message).toBe(BOOKING_MSG.onlyTrainerNoShow);
    for (const stranger of [await bookableTrainer(t), await createAccount(t, 'user')]) {
      expect((await noShow(stranger.token, bookingId)).statusCode).toBe(404);
    }
    expect((await noShow(undefined, bookingId)).statusCode).toBe(401);
    const heldId = (await hold(t, me.token, trainer.id, hourFromNow(9))).json().booking._id;
    const onHold = await noShow(trainer.token, heldId);
    expect(onHold.statusCode).toBe(409);
    expect(onHold.json().message).toBe(BOOKING_MSG.noShowNotConfirmed);
    expect((await db.select().from(bookings).where(eq(bookings.id, bookingId)))[0].status).toBe('confirmed');
  });

  it('after the start: the trainer marks it, no money moves; until 7 days after the end', async () => {
    const start = new Date('2027-02-01T06:00:00.000Z');
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
    const id = await paid('2027-02-01T10:00:00.000Z');
    const lateId = await paid('2027-02-01T11:00:00.000Z');
    const list = async (token: string) =>
      (await clock.app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[];

    // a minute before the start the trainer may still cancel; once it started, mark a no-show (the
    // schedule read a minute before is not answered again from memory)
    clock.setNow(new Date('2027-02-01T09:59:00.000Z'));
    expect((await list(trainer.token)).find((b) => b._id === id)).toMatchObject({ canCancel: true, canMarkNoShow: false });
    clock.setNow(new Date('2027-02-01T10:05:00.000Z'));
    expect((await list(trainer.token)).find((b) => b._id === id)).toMatchObject({ canCancel: false, canMarkNoShow: true });
    expect((await list(me.token)).find((b) => b._id === id)?.canMarkNoShow).toBe(false);
    // a trainer cannot cancel a session that started
    const late = await cancel({ ...t, app: clock.app }, trainer.token, id, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(BOOKING_MSG.alreadyOver);
    const res = await noShow(trainer.token, id, clock.app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: BOOKING_MSG.noShowMarked, booking: { status: 'no-show', canMarkNoShow: false } });
    expect((await paymentOf(id)).status).toBe('completed');
    expect((await list(me.token)).find((b) => b._id === id)?.status).toBe('no-show');
    expect((await noShow(trainer.token, id, clock.app)).json().message).toBe(BOOKING_MSG.noShowNotConfirmed);

    // 7 days after its end it is settled
    clock.setNow(new Date(Date.parse('2027-02-01T12:00:00.000Z') + 7 * 24 * HOUR));
    expect((await list(trainer.token)).find((b) => b._id === lateId)?.canMarkNoShow).toBe(false);
    expect((await noShow(trainer.token, lateId, clock.app)).statusCode).toBe(409);
  });
});

describe('mails and .ics', () => {
  it('both confirmations state the policy in the shared words and the place; the .ics has LOCATION, escaped', async () => {
    const trainer = await bookableTrainer(t, {
      timeZone: 'Africa/Cairo',
      location: { kind: 'address', text: '12 Nile St, Zamalek; Cairo' },
    });
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(60);
    await bookAndPay(t, me.token, trainer.id, startsAt);
    const policy = cancellationPolicy({ startsAt, now: new Date(), timeZone: 'Africa/Cairo' }).text;
    expect(policy).toMatch(/^Free cancellation until .+ \(Cairo time\)$/);
    for (const [to, subject] of [
      [me.email, 'Booked'],
      [trainer.email, 'New booking'],
    ]) {
      const mail = t.outbox().find((m) => m.to === to && m.subject.startsWith(subject))!;
      expect(mail.text).toContain(`${policy}.`);
      expect(mail.text).toContain('Place: 12 Nile St, Zamalek; Cairo.');
      expect(mail.text).toMatch(/\(Cairo time, GMT\+2\)/);
      // the mail links to where the session can be cancelled (and, by its user, moved)
      expect(mail.text).toMatch(/See, (message|move) or cancel it in your (sessions|schedule): http\S+/);
      const eml = outboxEml(t).find((e) => e.includes(`To: ${to}`) && e.includes(`Subject: ${subject}`))!;
      expect(eml).toMatch(/See(, move)? or cancel this session<\/a>/);
      const ics = mimePart(eml, 'text/calendar')!.replace(/\r\n /g, '');
      expect(ics).toContain('LOCATION:12 Nile St\\, Zamalek\\; Cairo\r\n');
      expect(ics).toContain(`DESCRIPTION:Spotter booking`);
      expect(ics).toContain(policy.replace(/,/g, '\\,'));
    }
  });

  it('inside 24 hours the confirmation says it is not refundable; without a place the .ics has no LOCATION', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    await bookAndPay(t, me.token, trainer.id, hourFromNow(3));
    const mail = t.outbox().find((m) => m.to === me.email && m.subject.startsWith('Booked'))!;
    expect(mail.text).toContain('Starts in less than 24 hours: not refundable.');
    expect(mail.text).not.toContain('Place:');
    const eml = outboxEml(t).find((e) => e.includes(`To: ${me.email}`) && e.includes('Subject: Booked'))!;
    expect(mimePart(eml, 'text/calendar')).not.toContain('LOCATION:');
  });
});

describe('the OpenAPI document', () => {
  it('has the no-show route and the cancellation’s optional reason, from the shared schemas', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    const noShowOp = doc.paths['/api/bookings/{id}/no-show'].post;
    expect(Object.keys(noShowOp.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
    expect(JSON.stringify(noShowOp.responses['200'])).toContain('canMarkNoShow');
    const cancelOp = doc.paths['/api/bookings/{id}/cancel'].post;
    expect(JSON.stringify(cancelOp.requestBody)).toContain('reason');
  });
});

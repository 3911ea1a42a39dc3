// A trainer who deletes their account: every paid session still to come is refunded in full and its
// user told (src/modules/bookings/cancel-account-sessions.ts, account-jobs.ts; the accounts module's
// onDeleted hook, wired in src/app.ts; docs/decisions/042-money-ledger.md#a-trainer-who-leaves).
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG } from '@spotter/shared';
import { bookings, jobs, payments, refunds } from '../../src/db/schema';
import { ACCOUNT_JOBS } from '../../src/modules/bookings/account-jobs';
import { createAccount, useTestApp, type TestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, hold, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { until } from '../support/until';

// a slow answer comes well after Spotter stopped waiting (2 s: a loaded machine still gets prompt answers in time)
const TIMEOUT_MS = 2_000;
const { t: withPaypal, paypal } = await usePaypalApp({ timeoutMs: TIMEOUT_MS });
const withDemo = await useTestApp();

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const bookingOf = async (t: TestApp, id: string) => (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0];
const paymentOf = async (t: TestApp, bookingId: string) =>
  (await t.database.db.select().from(payments).where(eq(payments.bookingId, bookingId)))[0];
const trainerLeftJob = async (t: TestApp, trainerId: string) =>
  (
    await t.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'booking.trainer-left'), sql`${jobs.payload}->>'trainerId' = ${trainerId}`))
  )[0];

/**
 * A trainer ($200) with, each of a different user: a paid session 3 days ahead, a paid one 2 hours
 * ahead (inside the users' 24 hours), a paid one that started yesterday, and an unpaid hold.
 */
async function trainerWithSessions(t: TestApp) {
  const trainer = await bookableTrainer(t, { price: 200 });
  const [far, near, past, holder] = await Promise.all(
    ['Far', 'Near', 'Past', 'Holder'].map((firstName) => createAccount(t, 'user', { firstName })),
  );
  const farId = (await bookAndPay(t, far.token, trainer.id, hourFromNow(72))).bookingId;
  const nearId = (await bookAndPay(t, near.token, trainer.id, hourFromNow(2))).bookingId;
  const pastId = (await bookAndPay(t, past.token, trainer.id, hourFromNow(100))).bookingId;
  // a session that started yesterday and is not over for the books yet: still confirmed
  const yesterday = new Date(Math.floor((Date.now() - DAY) / HOUR) * HOUR);
  await t.database.db
    .update(bookings)
    .set({ startsAt: yesterday, endsAt: new Date(yesterday.getTime() + HOUR) })
    .where(eq(bookings.id, pastId));
  const held = await hold(t, holder.token, trainer.id, hourFromNow(50));
  expect(held.statusCode).toBe(201);
  const holdId = held.json().booking._id as string;
  return { trainer, far, near, past, holder, farId, nearId, pastId, holdId };
}

const deleteAccount = (t: TestApp, who: { token: string; password: string }) =>
  t.app.inject({ method: 'DELETE', url: '/api/trainer', headers: auth(who.token), payload: { password: who.password } });

/** Runs due jobs (the pollers may run them too) until the check holds. */
const runJobsUntil = (t: TestApp, check: () => Promise<boolean>, what: string, now?: () => Date) =>
  until(async () => {
    await t.app.jobs.runDue(now ? { now: now() } : {});
    return check();
  }, what);

/** A clock past the first retries' back-off: the job runner's (30 s) and a written refund's (2 min). */
const afterRetries = () => new Date(Date.now() + 3 * 60_000);

/** What the user sees of the session: in GET /api/bookings, and the cancellation mail. */
async function expectUserTold(t: TestApp, user: { token: string; email: string }, bookingId: string) {
  const list = await t.app.inject({ url: '/api/bookings', headers: auth(user.token) });
  expect(list.statusCode).toBe(200);
  const seen = (list.json().bookings as Array<Record<string, unknown>>).find((b) => b._id === bookingId);
  expect(seen).toMatchObject({
    status: 'refunded',
    cancelledBy: 'trainer',
    cancelReason: BOOKING_MSG.trainerLeft,
    canCancel: false,
    price: 200,
  });
  const mails = t.outbox().filter((m) => m.to === user.email && m.subject.startsWith('Cancelled'));
  expect(mails).toHaveLength(1);
  expect(mails[0].subject).toBe('Cancelled: your session with Former member');
  expect(mails[0].text).toContain(`Reason: ${BOOKING_MSG.trainerLeft}.`);
  expect(mails[0].text).toContain('The payment of $200.00 is refunded in full.');
  expect(mails[0].text).not.toMatch(/you cancelled/i);
  // the trainer is gone: their time is not offered again
  expect(mails[0].text).not.toContain('free again');
}

describe('a trainer deletes their account', () => {
  it('with PayPal: both paid sessions to come are refunded in full (one inside 24 h), once each; the past one and the hold are left as they must be', async () => {
    const t = withPaypal;
    const s = await trainerWithSessions(t);
    const captureOf = async (id: string) => (await paymentOf(t, id)).captureId;
    const [farCapture, nearCapture, pastCapture] = await Promise.all([s.farId, s.nearId, s.pastId].map(captureOf));

    expect((await deleteAccount(t, s.trainer)).statusCode).toBe(200);
    await runJobsUntil(
      t,
      async () => (await bookingOf(t, s.farId)).status === 'refunded' && (await bookingOf(t, s.nearId)).status === 'refunded',
      "the trainer's upcoming sessions refunded",
    );
    await until(async () => !(await trainerLeftJob(t, s.trainer.id)), 'the job done and gone');

    for (const [id, captureId] of [
      [s.farId, farCapture],
      [s.nearId, nearCapture],
    ]) {
      const refunds = paypal.state.ledger.refunds.filter((r) => r.captureId === captureId);
      expect(refunds).toEqual([{ captureId, refundId: expect.any(String), amount: '200.00' }]);
      expect(await paymentOf(t, id)).toMatchObject({ status: 'refunded', refundId: refunds[0].refundId });
      expect(await bookingOf(t, id)).toMatchObject({ cancelledBy: 'trainer', cancelReason: BOOKING_MSG.trainerLeft });
    }
    await expectUserTold(t, s.far, s.farId);
    await expectUserTold(t, s.near, s.nearId);

    // the session that had started is not touched, nor refunded
    expect((await bookingOf(t, s.pastId)).status).toBe('confirmed');
    expect((await paymentOf(t, s.pastId)).status).toBe('completed');
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === pastCapture)).toEqual([]);
    // the hold is released, and its user was charged nothing
    expect(await bookingOf(t, s.holdId)).toMatchObject({ status: 'cancelled', cancelledBy: 'trainer' });
    expect(await paymentOf(t, s.holdId)).toBeUndefined();
    // the trainer's own address is gone: no mail goes to it
    expect(t.outbox().filter((m) => m.to.endsWith('@deleted.invalid'))).toEqual([]);
  });

  it('with PayPal down during the refunds: the job retries, and each session is refunded once when it is back', async () => {
    const t = withPaypal;
    const s = await trainerWithSessions(t);
    const nearCapture = (await paymentOf(t, s.nearId)).captureId;
    const farCapture = (await paymentOf(t, s.farId)).captureId;
    // the first refund (the soonest session's) meets a PayPal 500
    paypal.failNext('refund', 'server-error');

    expect((await deleteAccount(t, s.trainer)).statusCode).toBe(200);
    await runJobsUntil(
      t,
      async () => (await trainerLeftJob(t, s.trainer.id))?.lastError != null,
      'the job to fail once and wait for its retry',
    );
    const failed = await trainerLeftJob(t, s.trainer.id);
    expect(failed).toMatchObject({ attempts: 1, failedAt: null, lockedUntil: null });
    expect(failed.runAt.getTime()).toBeGreaterThan(Date.now());
    // the other session did not wait for it; this one is still paid, nothing refunded at PayPal
    expect((await bookingOf(t, s.farId)).status).toBe('refunded');
    expect((await bookingOf(t, s.nearId)).status).toBe('confirmed');
    expect((await paymentOf(t, s.nearId)).status).toBe('completed');
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === nearCapture)).toEqual([]);
    expect(t.outbox().filter((m) => m.to === s.near.email && m.subject.startsWith('Cancelled'))).toEqual([]);

    // PayPal is back; the retries are due after their back-off (the refund written before the call
    // has its own job, which finishes it with the trainer's reason)
    await runJobsUntil(
      t,
      async () => !(await trainerLeftJob(t, s.trainer.id)) && (await bookingOf(t, s.nearId)).status === 'refunded',
      'the retries to finish',
      afterRetries,
    );
    for (const captureId of [nearCapture, farCapture])
      expect(paypal.state.ledger.refunds.filter((r) => r.captureId === captureId)).toHaveLength(1);
    expect(await paymentOf(t, s.nearId)).toMatchObject({ status: 'refunded' });
    await expectUserTold(t, s.near, s.nearId);
    await expectUserTold(t, s.far, s.farId);
  });

  it('a refund PayPal made but answered too late: the retry asks again with the same request id, and nothing is refunded twice', async () => {
    const t = withPaypal;
    const s = await trainerWithSessions(t);
    const nearCapture = (await paymentOf(t, s.nearId)).captureId;
    // PayPal refunds the soonest session but its answer comes after Spotter's timeout
    paypal.failNext('refund', 'slow');

    expect((await deleteAccount(t, s.trainer)).statusCode).toBe(200);
    await runJobsUntil(t, async () => (await trainerLeftJob(t, s.trainer.id))?.lastError != null, 'the job to fail once');
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === nearCapture)).toHaveLength(1);
    expect((await bookingOf(t, s.nearId)).status).toBe('confirmed');

    await runJobsUntil(
      t,
      async () => !(await trainerLeftJob(t, s.trainer.id)) && (await bookingOf(t, s.nearId)).status === 'refunded',
      'the retries to finish',
      afterRetries,
    );
    const refunds = paypal.state.ledger.refunds.filter((r) => r.captureId === nearCapture);
    expect(refunds).toHaveLength(1);
    expect(await paymentOf(t, s.nearId)).toMatchObject({ status: 'refunded', refundId: refunds[0].refundId });
    await expectUserTold(t, s.near, s.nearId);
  });

  it('with the demo provider: the same, one refund per session', async () => {
    const t = withDemo;
    const s = await trainerWithSessions(t);
    // the refunds written (one row per refund, written before the provider is called: docs/decisions/042-money-ledger.md#refunds)
    const refundsOf = async (bookingId: string) =>
      (await t.database.db.select().from(refunds).where(eq(refunds.bookingId, bookingId))).filter(
        (r) => r.status === 'completed',
      );

    expect((await deleteAccount(t, s.trainer)).statusCode).toBe(200);
    await runJobsUntil(t, async () => !(await trainerLeftJob(t, s.trainer.id)), 'the job done and gone');

    expect(await refundsOf(s.farId)).toHaveLength(1);
    expect(await refundsOf(s.nearId)).toHaveLength(1);
    expect(await refundsOf(s.pastId)).toHaveLength(0);
    for (const id of [s.farId, s.nearId]) {
      expect((await bookingOf(t, id)).status).toBe('refunded');
      expect((await paymentOf(t, id)).refundId).toMatch(/^DEMO-REFUND-/);
    }
    await expectUserTold(t, s.far, s.farId);
    await expectUserTold(t, s.near, s.nearId);
    expect((await bookingOf(t, s.pastId)).status).toBe('confirmed');
    expect((await bookingOf(t, s.holdId)).status).toBe('cancelled');

    // the job run again (a crash before it was deleted) refunds nothing twice
    await t.app.jobs.enqueue(t.database.db, {
      kind: ACCOUNT_JOBS.trainerLeft,
      runAt: new Date(),
      payload: { trainerId: s.trainer.id, reason: 'account-deleted', since: new Date(Date.now() - HOUR).toISOString() },
    });
    await runJobsUntil(t, async () => !(await trainerLeftJob(t, s.trainer.id)), 'the repeated job done');
    expect([...(await refundsOf(s.farId)), ...(await refundsOf(s.nearId))]).toHaveLength(2);
    expect(t.outbox().filter((m) => m.to === s.far.email && m.subject.startsWith('Cancelled'))).toHaveLength(1);
  });

  it("a user's deletion leaves their trainer's sessions alone (only a trainer's refunds)", async () => {
    const t = withDemo;
    const trainer = await bookableTrainer(t, { price: 200 });
    const other = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, other.token, trainer.id, hourFromNow(80));
    const leaver = await createAccount(t, 'user');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: auth(leaver.token),
      payload: { password: leaver.password },
    });
    expect(res.statusCode).toBe(200);
    expect(await trainerLeftJob(t, leaver.id)).toBeUndefined();
    expect((await bookingOf(t, bookingId)).status).toBe('confirmed');
  });
});

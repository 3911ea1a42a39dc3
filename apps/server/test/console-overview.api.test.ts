// The console's overview (docs/product.md#the-overview): the last 30 UTC days, each day's bookings,
// cancellations, money and sign-ups from the tables themselves, every day present, their sums, and
// what waits for an operator; operators only.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZConsoleOverviewResponse, type TConsoleOverviewDay, type TConsoleOverviewResponse } from '@spotter/shared';
import { accounts, bookings, certificates, disputes, payments, payouts, refunds, reports } from '../src/db/schema';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, cancel, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';
import { until } from './support/until';

const t = await useTestApp();
const db = t.database.db;
const DAY = 24 * 60 * 60_000;
const operator = await signedInOperator(t);

const isoDay = (at: Date) => at.toISOString().slice(0, 10);
/** Noon (UTC) `n` days ago: the middle of that day, whatever the hour now. */
const daysAgo = (n: number) => new Date(Date.parse(`${isoDay(new Date())}T12:00:00Z`) - n * DAY);

const overview = async () => {
  const res = await t.app.inject({ url: '/api/console/overview', headers: auth(operator.token) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  return ZConsoleOverviewResponse.parse(res.json()) as TConsoleOverviewResponse;
};

const ZERO = { bookings: 0, cancellations: 0, paid: 0, refunded: 0, paidOut: 0, fees: 0, newUsers: 0, newTrainers: 0 };

describe('GET /api/console/overview', () => {
  it('answers 30 days of zeros on an empty database, today last', async () => {
    const answer = await overview();
    expect(answer.days).toHaveLength(30);
    expect(answer.to).toBe(isoDay(new Date()));
    expect(answer.from).toBe(isoDay(new Date(Date.now() - 29 * DAY)));
    expect(answer.days[0].day).toBe(answer.from);
    expect(answer.days.at(-1)!.day).toBe(answer.to);
    for (const d of answer.days) expect(d).toEqual({ day: d.day, ...ZERO });
    expect(answer.totals).toEqual(ZERO);
    expect(answer.waiting).toEqual({ openReports: 0, openDisputes: 0, pendingVerifications: 0 });
  });

  it('counts each measure on its own day, and sums them', async () => {
    // today: a trainer and two users sign up; one session is paid and kept, one paid and cancelled (refunded in full)
    const trainer = await bookableTrainer(t, { price: 200 });
    const ana = await createAccount(t, 'user');
    const ben = await createAccount(t, 'user');
    const kept = await bookAndPay(t, ana.token, trainer.id, hourFromNow(72));
    const dropped = await bookAndPay(t, ben.token, trainer.id, hourFromNow(73));
    expect((await cancel(t, ben.token, dropped.bookingId)).statusCode).toBe(200);
    await until(async () => (await db.select().from(refunds).where(eq(refunds.status, 'completed'))).length === 1, 'the refund');

    // 7 days ago: a session paid then (its booking and payment moved there), by a user who signed up then
    const cat = await createAccount(t, 'user');
    const earlier = await bookAndPay(t, cat.token, trainer.id, hourFromNow(74));
    await db
      .update(bookings)
      .set({ createdAt: daysAgo(7) })
      .where(eq(bookings.id, earlier.bookingId));
    await db
      .update(payments)
      .set({ createdAt: daysAgo(7) })
      .where(eq(payments.bookingId, earlier.bookingId));
    await db
      .update(accounts)
      .set({ createdAt: daysAgo(7) })
      .where(eq(accounts.id, cat.id));
    // 29 days ago (the first day) a trainer signed up; 30 days ago (outside) another
    const first = await createAccount(t, 'trainer');
    await db
      .update(accounts)
      .set({ createdAt: daysAgo(29) })
      .where(eq(accounts.id, first.id));
    const outside = await createAccount(t, 'trainer');
    await db
      .update(accounts)
      .set({ createdAt: daysAgo(30) })
      .where(eq(accounts.id, outside.id));

    // payouts: 5 days ago one paid and one sent count; one pending and one returned do not
    const payout = (status: 'pending' | 'sent' | 'paid' | 'returned', amountCents: number, at: Date) => ({
      trainerId: trainer.id,
      email: trainer.email,
      provider: 'demo' as const,
      amountCents,
      currency: 'USD',
      status,
      bookingIds: [kept.bookingId],
      batchKey: `batch-${status}-${amountCents}`,
      createdAt: at,
      updatedAt: at,
    });
    await db
      .insert(payouts)
      .values([
        payout('paid', 12345, daysAgo(5)),
        payout('sent', 1000, daysAgo(5)),
        payout('pending', 777, daysAgo(5)),
        payout('returned', 888, daysAgo(5)),
      ]);
    // refunds: 4 days ago one completed counts; one requested and one failed do not
    const refund = (status: 'requested' | 'completed' | 'failed', amountCents: number, at: Date) => ({
      key: `overview-${status}`,
      provider: 'demo' as const,
      providerOrderId: `order-${status}`,
      captureId: `capture-${status}`,
      amountCents,
      currency: 'USD',
      status,
      reason: 'test',
      createdAt: at,
      completedAt: status === 'completed' ? at : null,
    });
    await db
      .insert(refunds)
      .values([refund('completed', 5050, daysAgo(4)), refund('requested', 999, daysAgo(4)), refund('failed', 111, daysAgo(4))]);

    const fees = async (bookingId: string) =>
      (await db.select({ fee: payments.feeCents }).from(payments).where(eq(payments.bookingId, bookingId)))[0].fee / 100;
    const todayFees = (await fees(kept.bookingId)) + (await fees(dropped.bookingId));
    const earlierFees = await fees(earlier.bookingId);
    expect(await fees(kept.bookingId)).toBe(20); // the Starter plan's 10 %

    const answer = await overview();
    expect(answer.days).toHaveLength(30);
    const on = (n: number) => answer.days.find((d) => d.day === isoDay(daysAgo(n)))!;
    expect(on(0)).toEqual({
      day: answer.to,
      bookings: 2,
      cancellations: 1,
      paid: 400,
      refunded: 200,
      paidOut: 0,
      fees: todayFees,
      newUsers: 2,
      newTrainers: 1,
    });
    expect(on(4)).toEqual({ day: isoDay(daysAgo(4)), ...ZERO, refunded: 50.5 });
    expect(on(5)).toEqual({ day: isoDay(daysAgo(5)), ...ZERO, paidOut: 133.45 });
    expect(on(7)).toEqual({ day: isoDay(daysAgo(7)), ...ZERO, bookings: 1, paid: 200, fees: earlierFees, newUsers: 1 });
    expect(on(29)).toEqual({ day: answer.from, ...ZERO, newTrainers: 1 });
    const busy = new Set([0, 4, 5, 7, 29].map((n) => isoDay(daysAgo(n))));
    for (const d of answer.days.filter((d: TConsoleOverviewDay) => !busy.has(d.day))) expect(d).toEqual({ day: d.day, ...ZERO });
    expect(answer.totals).toEqual({
      bookings: 3,
      cancellations: 1,
      paid: 600,
      refunded: 250.5,
      paidOut: 133.45,
      fees: todayFees + earlierFees,
      newUsers: 3,
      newTrainers: 2,
    });

    // a session cancelled by the user earlier is counted on the day it was cancelled, not booked
    await db
      .update(bookings)
      .set({ cancelledAt: daysAgo(2) })
      .where(eq(bookings.id, dropped.bookingId));
    const moved = await overview();
    expect(moved.days.find((d) => d.day === isoDay(daysAgo(2)))!.cancellations).toBe(1);
    expect(moved.days.at(-1)!.cancellations).toBe(0);
    expect(moved.days.at(-1)!.bookings).toBe(2);
  });

  it('counts what waits: open reports, open disputes and certificates to verify', async () => {
    const trainer = await bookableTrainer(t);
    const user = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(80));
    const now = new Date();
    const report = (status: 'open' | 'dismissed', itemId: string, reporterId: string) => ({
      reporterId,
      kind: 'profile' as const,
      itemId,
      subjectId: trainer.id,
      reason: 'spam',
      note: '',
      createdAt: now,
      status,
    });
    const other = await createAccount(t, 'user');
    await db
      .insert(reports)
      .values([
        report('open', trainer.id, user.id),
        report('open', trainer.id, other.id),
        report('dismissed', user.id, other.id),
      ]);
    await db
      .insert(disputes)
      .values({ bookingId, userId: user.id, trainerId: trainer.id, reason: 'no-show', note: '', createdAt: now, status: 'open' });
    const certificate = (status: 'pending' | 'approved' | 'rejected') => ({
      trainerId: trainer.id,
      issuer: 'ACE',
      expiresOn: '2099-01-01',
      fileKey: `certificate-${status}.pdf`,
      mime: 'application/pdf',
      bytes: 100,
      status,
      createdAt: now,
    });
    await db.insert(certificates).values([certificate('pending'), certificate('approved'), certificate('rejected')]);

    expect((await overview()).waiting).toEqual({ openReports: 2, openDisputes: 1, pendingVerifications: 1 });
    await db
      .update(reports)
      .set({ status: 'hidden' })
      .where(inArray(reports.reporterId, [user.id]));
    expect((await overview()).waiting.openReports).toBe(1);
  });

  it('is for operators only: 401 without a token, 403 with a member’s', async () => {
    expect((await t.app.inject({ url: '/api/console/overview' })).statusCode).toBe(401);
    const user = await createAccount(t, 'user');
    const trainer = await createAccount(t, 'trainer');
    expect((await t.app.inject({ url: '/api/console/overview', headers: auth(user.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/console/overview', headers: auth(trainer.token) })).statusCode).toBe(403);
  });
});

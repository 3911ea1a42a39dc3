// The console's overview (docs/product.md#the-overview): the last 30 UTC days, each day's bookings,
// cancellations and sign-ups from the tables themselves and its money from the ledger (adding up with
// it), every day present, their sums, and what waits for an operator; operators only.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZConsoleOverviewResponse, type TConsoleOverviewDay, type TConsoleOverviewResponse } from '@spotter/shared';
import { accounts, bookings, certificates, disputes, payments, payouts, refunds, reports } from '../src/db/schema';
import { account, balance, post } from '../src/modules/money';
import { MONEY_JOBS } from '../src/modules/money/money-jobs';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';
import { until } from './support/until';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
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

/**
 * The money figures add up with the ledger (all of it is within the 30 days here): the fees are the
 * platform's fees account, and what was paid less what was refunded and paid out is what the
 * provider's world account gave to Spotter.
 */
async function addsUpWithTheLedger(answer: TConsoleOverviewResponse) {
  const cents = (dollars: number) => Math.round(dollars * 100);
  const { paid, refunded, paidOut, fees } = answer.totals;
  expect(cents(fees)).toBe(await balance(db, account.fees));
  expect(cents(paid) - cents(refunded) - cents(paidOut)).toBe(-(await balance(db, account.world('demo'))));
}

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

    // 7 days ago: a session booked then (its booking moved there), by a user who signed up then; its
    // money stays where the ledger has it, today
    const cat = await createAccount(t, 'user');
    const earlier = await bookAndPay(t, cat.token, trainer.id, hourFromNow(74));
    await db
      .update(bookings)
      .set({ createdAt: daysAgo(7) })
      .where(eq(bookings.id, earlier.bookingId));
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

    // the ledger on other days (its rows are never moved: written there): 4 days ago a refund of
    // $50.50 gave back $5.05 of the fee; 5 days ago $123.45 was paid out, and $10 more sent and not
    // paid yet (not paid out)
    const USD = 'USD';
    const pending = account.trainerPending(trainer.id);
    const payable = account.trainerPayable(trainer.id);
    const paying = account.trainerPaying(trainer.id);
    const moves: Array<[string, 'refund' | 'payable' | 'payout' | 'payout-paid', Date, Array<[string, number]>]> = [
      [
        'overview:refund',
        'refund',
        daysAgo(4),
        [
          [account.world('demo'), 5050],
          [account.fees, -505],
          [pending, -4545],
        ],
      ],
      [
        'overview:payable',
        'payable',
        daysAgo(5),
        [
          [pending, -13345],
          [payable, 13345],
        ],
      ],
      [
        'overview:payout',
        'payout',
        daysAgo(5),
        [
          [payable, -13345],
          [paying, 13345],
        ],
      ],
      [
        'overview:payout-paid',
        'payout-paid',
        daysAgo(5),
        [
          [paying, -12345],
          [account.world('demo'), 12345],
        ],
      ],
    ];
    for (const [key, kind, at, entries] of moves)
      await db.transaction((tx) =>
        post(tx, {
          key,
          kind,
          trainerId: trainer.id,
          entries: entries.map(([acc, amountCents]) => ({ account: acc, amountCents, currency: USD })),
          at,
        }),
      );

    const fees = async (bookingId: string) =>
      (await db.select({ fee: payments.feeCents }).from(payments).where(eq(payments.bookingId, bookingId)))[0].fee / 100;
    expect(await fees(kept.bookingId)).toBe(20); // the Starter plan's 10 %

    const answer = await overview();
    expect(answer.days).toHaveLength(30);
    const on = (n: number) => answer.days.find((d) => d.day === isoDay(daysAgo(n)))!;
    // today: three sessions paid, one of them refunded in full with its fee
    expect(on(0)).toEqual({
      day: answer.to,
      bookings: 2,
      cancellations: 1,
      paid: 600,
      refunded: 200,
      paidOut: 0,
      fees: 40,
      newUsers: 2,
      newTrainers: 1,
    });
    expect(on(4)).toEqual({ day: isoDay(daysAgo(4)), ...ZERO, refunded: 50.5, fees: -5.05 });
    expect(on(5)).toEqual({ day: isoDay(daysAgo(5)), ...ZERO, paidOut: 123.45 });
    expect(on(7)).toEqual({ day: isoDay(daysAgo(7)), ...ZERO, bookings: 1, newUsers: 1 });
    expect(on(29)).toEqual({ day: answer.from, ...ZERO, newTrainers: 1 });
    const busy = new Set([0, 4, 5, 7, 29].map((n) => isoDay(daysAgo(n))));
    for (const d of answer.days.filter((d: TConsoleOverviewDay) => !busy.has(d.day))) expect(d).toEqual({ day: d.day, ...ZERO });
    expect(answer.totals).toEqual({
      bookings: 3,
      cancellations: 1,
      paid: 600,
      refunded: 250.5,
      paidOut: 123.45,
      fees: 34.95,
      newUsers: 3,
      newTrainers: 2,
    });
    await addsUpWithTheLedger(answer);

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

  it('takes the money from the ledger: a card session, a package and a session from it, a part refund, a payout', async () => {
    const today = async () => (await overview()).days.at(-1)!;
    const before = await today();

    // a $200 session by card (fee $20), over two days ago: its share is due and paid out below
    const coach = await bookableTrainer(t, { price: 200 });
    const payoutAddress = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/payout',
      headers: auth(coach.token),
      payload: { email: `overview.${Date.now()}@example.com` },
    });
    expect(payoutAddress.statusCode).toBe(200);
    const dana = await createAccount(t, 'user');
    const session = await bookAndPay(t, dana.token, coach.id, hourFromNow(76));
    const endsAt = new Date(Date.now() - 49 * HOUR);
    await db
      .update(bookings)
      .set({ startsAt: new Date(endsAt.getTime() - HOUR), endsAt })
      .where(eq(bookings.id, session.bookingId));
    // an operator refunds $50 of it: $5 of the fee goes back with it
    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/console/bookings/${session.bookingId}/refund`,
      headers: auth(operator.token),
      payload: { amount: 50, reason: 'Started late' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await until(
      async () => (await db.select().from(refunds).where(eq(refunds.bookingId, session.bookingId)))[0]?.status === 'completed',
      'the part refund',
    );

    // a package of 2 sessions for $180 from a $100 trainer (no fee when bought), and a session from it
    // ($90: $9 of it the fee)
    const seller = await bookableTrainer(t, { price: 100 });
    const offered = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/packages',
      headers: auth(seller.token),
      payload: { packages: [{ sessions: 2, price: 180, validityMonths: null }] },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const eli = await createAccount(t, 'user');
    const order = await createOrder(t, eli.token, { packageId: offered.json().packages[0]._id });
    expect(order.statusCode, order.body).toBe(200);
    expect((await capture(t, eli.token, order.json().id)).statusCode).toBe(200);
    const fromBalance = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(eli.token),
      payload: { trainerId: seller.id, startsAt: hourFromNow(80), payWith: 'balance' },
    });
    expect(fromBalance.statusCode, fromBalance.body).toBe(201);

    // the daily payout runs now: the card session's share, $180 less the $45 refunded of it, is paid out
    const run = await t.app.jobs.enqueue(db, { kind: MONEY_JOBS.payouts, runAt: new Date(), payload: {}, claimFor: 60_000 });
    await t.app.jobs.runClaimed(run);
    expect(await balance(db, account.trainerPaying(coach.id))).toBe(0);
    expect((await db.select().from(payouts).where(eq(payouts.trainerId, coach.id)))[0]).toMatchObject({
      status: 'paid',
      amountCents: 13_500,
    });

    const after = await today();
    const change = (key: 'paid' | 'refunded' | 'paidOut' | 'fees') => Math.round((after[key] - before[key]) * 100) / 100;
    expect({ paid: change('paid'), refunded: change('refunded'), paidOut: change('paidOut'), fees: change('fees') }).toEqual({
      paid: 380, // $200 for the session and $180 for the package
      refunded: 50,
      paidOut: 135,
      fees: 24, // $20 of the session, less the $5 refunded, and $9 of the session from the package
    });
    await addsUpWithTheLedger(await overview());
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

// Refunds and disputes of sessions paid from a balance (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md):
// a package's session or a weekly series' week paid by card is refunded by an operator, in full or in
// part, back to the card through the capture of the balance that paid for it (PayPal's real adapter
// against the local fake of its REST API); the money comes out of that session's trainer share and fee,
// the balance and its other sessions are not touched, and the ledger check finds no difference. Its
// user can dispute it, and the rules table and an operator's decision refund it the same way.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DISPUTE_MSG,
  MONEY_MSG,
  POLICY_V1,
  type TBalance,
  type TConsoleBooking,
  type TConsoleDispute,
  type TPayment,
  type TPaymentsResponse,
} from '@spotter/shared';
import { bookings, ledgerEntries, ledgerTransactions, packageBalances, refunds } from '../src/db/schema';
import { checkLedger } from '../src/modules/money/ledger-check';
import { dueShares } from '../src/modules/money/payouts.repo';
import { createAccount } from './helper';
import { auth, bookableTrainer, cancel, capture, createOrder, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';
import { usePaypalApp } from './support/paypal-app';
import { until } from './support/until';

const { t, paypal } = await usePaypalApp();
const db = t.database.db;
const operator = await signedInOperator(t);
const op = { authorization: operator.token };
const HOUR = 60 * 60_000;
let hour = 30;

type Account = Awaited<ReturnType<typeof createAccount>>;

const refund = (bookingId: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/console/bookings/${bookingId}/refund`, headers: op, payload: body });
const dispute = (
  token: string,
  bookingId: string,
  body: Record<string, unknown> = { reason: 'cut-short', note: 'Ended early' },
) => t.app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/dispute`, headers: auth(token), payload: body });
const decide = (id: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/console/disputes/${id}/decide`, headers: op, payload: body });
const bookingOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
const refundsOf = (bookingId: string) => db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
/** The user's balances: what is left of each and its sessions left. */
const balancesOf = async (token: string) =>
  ((await t.app.inject({ url: '/api/balances', headers: auth(token) })).json().balances as TBalance[]).map((b) => ({
    amount: b.amount,
    sessionsLeft: b.sessionsLeft,
    status: b.status,
  }));
const search = async (q: string) => {
  const res = await t.app.inject({ url: `/api/console/bookings?q=${encodeURIComponent(q)}`, headers: op });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().bookings as TConsoleBooking[];
};
const consoleRow = async (user: Account, bookingId: string) => (await search(user.email)).find((b) => b._id === bookingId)!;
const openDisputes = async () =>
  (await t.app.inject({ url: '/api/console/disputes?status=open', headers: op })).json().disputes as TConsoleDispute[];
const paypalRefundsOf = (captureId: string) =>
  paypal.state.ledger.refunds.filter((r) => r.captureId === captureId).map((r) => r.amount);
const mailsTo = (email: string, subject: string) => t.outbox().filter((m) => m.to === email && m.subject.startsWith(subject));
const ledgerIsClean = async () => expect((await checkLedger({ db })).differences).toEqual([]);
/** The entries of the ledger's refund transaction of a refund row, by account. */
async function refundEntries(refundId: string) {
  const rows = await db
    .select({ account: ledgerEntries.account, cents: ledgerEntries.amountCents })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerTransactions.key, `refund:${refundId}`));
  return Object.fromEntries(rows.map((r) => [r.account, r.cents]));
}
/** Moves a session so that it ended `hoursAgo` hours ago. */
async function endedAgo(bookingId: string, hoursAgo: number) {
  const endsAt = new Date(Date.now() - hoursAgo * HOUR);
  await db
    .update(bookings)
    .set({ startsAt: new Date(endsAt.getTime() - HOUR), endsAt })
    .where(eq(bookings.id, bookingId));
}

/** A trainer at $100 with a package of 4 sessions for $360 ($90 each), bought by a user through PayPal, and two sessions booked from it. */
async function packageSessions() {
  const trainer = await bookableTrainer(t, { price: 100 });
  const put = await t.app.inject({
    method: 'PUT',
    url: '/api/trainer/packages',
    headers: auth(trainer.token),
    payload: { packages: [{ sessions: 4, price: 360, validityMonths: null }] },
  });
  expect(put.statusCode).toBe(200);
  const user = await createAccount(t, 'user');
  const orderId = (await createOrder(t, user.token, { packageId: put.json().packages[0]._id })).json().id as string;
  expect((await capture(t, user.token, orderId)).statusCode).toBe(200);
  const book = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(user.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow((hour += 2)), payWith: 'balance' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().booking._id as string;
  };
  const [first, second] = [await book(), await book()];
  const purchase = (await db.select().from(packageBalances).where(eq(packageBalances.providerOrderId, orderId)))[0];
  return { trainer, user, orderId, captureId: purchase.captureId!, first, second };
}

/** A trainer at $100 and a weekly series of 4 weeks paid by card through PayPal ($400, $100 a week). */
async function seriesWeeks() {
  const trainer = await bookableTrainer(t, { price: 100 });
  const user = await createAccount(t, 'user');
  const held = await t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: auth(user.token),
    payload: { trainerId: trainer.id, startsAt: hourFromNow((hour += 2)), weeks: 4 },
  });
  expect(held.statusCode, held.body).toBe(201);
  const seriesId = held.json().seriesId as string;
  const orderId = (await createOrder(t, user.token, { seriesId })).json().id as string;
  expect((await capture(t, user.token, orderId)).statusCode).toBe(200);
  const weeks = (await db.select().from(bookings).where(eq(bookings.seriesId, seriesId)).orderBy(bookings.startsAt)).map(
    (b) => b.id,
  );
  expect(weeks).toHaveLength(4);
  const purchase = (await db.select().from(packageBalances).where(eq(packageBalances.providerOrderId, orderId)))[0];
  return { trainer, user, orderId, captureId: purchase.captureId!, weeks };
}

describe('an operator refunds a session paid from a package', () => {
  it('in full (upcoming: cancelled) and in part (past), to the package’s card; the package and its other sessions stay', async () => {
    const { trainer, user, captureId, first, second } = await packageSessions();
    expect(await consoleRow(user, first)).toMatchObject({ paidWith: 'balance', price: 90, refunded: 0, refundable: 90 });
    const before = await balancesOf(user.token);
    expect(before).toEqual([{ sessionsLeft: 2, amount: 180, status: 'active' }]);

    const full = await refund(first, { reason: 'The trainer is ill' });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toEqual({
      refund: { refundId: expect.any(String), bookingId: first, amount: 90, status: 'completed', refundedTotal: 90, left: 0 },
      message: MONEY_MSG.refunded('$90.00'),
    });
    expect(paypalRefundsOf(captureId)).toEqual(['90.00']);
    const [row] = await refundsOf(first);
    expect(row).toMatchObject({ status: 'completed', amountCents: 9000, captureId, reason: 'The trainer is ill' });
    // from the session's share and fee (10%): the package's balance is not touched
    expect(await refundEntries(row.id)).toEqual({
      'world:paypal': 9000,
      'platform:fees': -900,
      [`trainer:${trainer.id}:pending`]: -8100,
    });
    expect((await bookingOf(first)).status).toBe('refunded');
    expect((await bookingOf(second)).status).toBe('confirmed');
    expect(await balancesOf(user.token)).toEqual(before);
    expect(mailsTo(user.email, 'Refunded: $90.00')[0].text).toContain('Reason: The trainer is ill. The session is cancelled.');
    expect(mailsTo(trainer.email, 'Refunded to')).toHaveLength(1);
    expect(await consoleRow(user, first)).toMatchObject({ status: 'refunded', refunded: 90, refundable: 0 });
    const again = await refund(first, { reason: 'Once more' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MONEY_MSG.nothingLeft);
    await ledgerIsClean();

    // the other session, over since: a part, then no more than its price less what went back
    await endedAgo(second, 3);
    const part = await refund(second, { amount: 30, reason: 'Started late' });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json().refund).toEqual({
      refundId: expect.any(String),
      bookingId: second,
      amount: 30,
      status: 'completed',
      refundedTotal: 30,
      left: 60,
    });
    expect((await bookingOf(second)).status).toBe('confirmed');
    const tooMuch = await refund(second, { amount: 60.01, reason: 'Too much' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(MONEY_MSG.tooMuch('$60.00'));
    expect(await consoleRow(user, second)).toMatchObject({ refunded: 30, refundable: 60 });
    const rest = await refund(second, { amount: 60, reason: 'Cut short too' });
    expect(rest.json().refund).toMatchObject({ refundedTotal: 90, left: 0 });
    // a session that took place stays as it was
    expect((await bookingOf(second)).status).toBe('confirmed');
    expect(paypalRefundsOf(captureId)).toEqual(['90.00', '30.00', '60.00']);
    expect(await balancesOf(user.token)).toEqual(before);
    const fees = await Promise.all((await refundsOf(second)).map(async (r) => (await refundEntries(r.id))['platform:fees']));
    expect(fees.reduce((a, b) => a + b, 0)).toBe(-900);
    await ledgerIsClean();

    // the rest of the package is still the user's, and refunded at its price
    const back = await t.app.inject({ method: 'POST', url: `/api/balances/${trainer.id}/refund`, headers: auth(user.token) });
    expect(back.json().refundedAmount).toBe(180);
    expect(paypalRefundsOf(captureId)).toEqual(['90.00', '30.00', '60.00', '180.00']);
    await ledgerIsClean();
  });

  it('a session refunded in part and then cancelled by its user: the rest goes to the card, not to the package', async () => {
    const { user, captureId, first } = await packageSessions();
    expect((await refund(first, { amount: 20, reason: 'Goodwill' })).statusCode).toBe(200);
    const res = await cancel(t, user.token, first);
    expect(res.statusCode, res.body).toBe(200);
    expect((await bookingOf(first)).status).toBe('refunded');
    expect(paypalRefundsOf(captureId)).toEqual(['20.00', '70.00']);
    expect(await balancesOf(user.token)).toMatchObject([{ sessionsLeft: 2, amount: 180 }]);
    await ledgerIsClean();
  });

  // defects a review found (fixed): a cancellation did not see an operator's refund still on its way,
  // and gave the whole price back to the package as well; the rest refunded on a cancellation left the
  // session booked while another refund of it was on its way
  it('a full refund still on its way, then the user cancels: the price goes back once, to the card, not to the package too', async () => {
    const { user, captureId, first } = await packageSessions();
    const before = await balancesOf(user.token);
    paypal.failNext('refund', 'server-error');
    const res = await refund(first, { reason: 'The trainer is ill' });
    expect(res.json()).toMatchObject({ refund: { status: 'pending', amount: 90, left: 0 } });
    const cancelled = await cancel(t, user.token, first);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balancesOf(user.token)).toEqual(before);
    await until(async () => {
      await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * 60_000) });
      return (await bookingOf(first)).status === 'refunded';
    }, 'the operator’s refund made by its job');
    expect(paypalRefundsOf(captureId)).toEqual(['90.00']);
    expect(await balancesOf(user.token)).toEqual(before);
    await ledgerIsClean();
  });

  it('a part refund still on its way, then the user cancels: the rest goes to the card and the session is cancelled at once', async () => {
    const { user, captureId, first } = await packageSessions();
    const before = await balancesOf(user.token);
    paypal.failNext('refund', 'server-error');
    expect((await refund(first, { amount: 20, reason: 'Goodwill' })).json()).toMatchObject({ refund: { status: 'pending' } });
    const cancelled = await cancel(t, user.token, first);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(paypalRefundsOf(captureId)).toEqual(['70.00']);
    expect((await bookingOf(first)).status).toBe('refunded');
    await until(async () => {
      await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * 60_000) });
      return paypalRefundsOf(captureId).length === 2;
    }, 'the operator’s part refund made by its job');
    expect(paypalRefundsOf(captureId)).toEqual(['70.00', '20.00']);
    expect(await balancesOf(user.token)).toEqual(before);
    await until(async () => (await refundsOf(first)).every((r) => r.status === 'completed'), 'both refunds completed');
    await ledgerIsClean();
  });

  it('with PayPal down: pending, then its job refunds it once through the package’s capture', async () => {
    const { user, captureId, first } = await packageSessions();
    paypal.failNext('refund', 'server-error');
    const res = await refund(first, { amount: 15, reason: 'Cut short' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refund: { status: 'pending', refundedTotal: 0, left: 75 } });
    expect((await consoleRow(user, first)).refundable).toBe(75);
    await until(async () => {
      await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * 60_000) });
      return paypalRefundsOf(captureId).length > 0;
    }, 'the job to make the refund');
    expect(paypalRefundsOf(captureId)).toEqual(['15.00']);
    await until(async () => (await refundsOf(first))[0].status === 'completed', 'the refund completed');
    await ledgerIsClean();
  });
});

describe('an operator refunds a week of a weekly series paid by card', () => {
  it('in full (upcoming: cancelled) and in part (past), to the series’ card; the other weeks stay', async () => {
    const { trainer, user, captureId, weeks } = await seriesWeeks();
    const full = await refund(weeks[1], { reason: 'The gym is closed that day' });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json().refund).toEqual({
      refundId: expect.any(String),
      bookingId: weeks[1],
      amount: 100,
      status: 'completed',
      refundedTotal: 100,
      left: 0,
    });
    expect((await bookingOf(weeks[1])).status).toBe('refunded');
    expect([(await bookingOf(weeks[0])).status, (await bookingOf(weeks[2])).status]).toEqual(['confirmed', 'confirmed']);
    expect(paypalRefundsOf(captureId)).toEqual(['100.00']);
    expect((await refundsOf(weeks[1]))[0]).toMatchObject({ captureId, amountCents: 10000, status: 'completed' });
    expect(mailsTo(user.email, 'Refunded: $100.00')).toHaveLength(1);
    expect(mailsTo(trainer.email, 'Refunded to')).toHaveLength(1);

    await endedAgo(weeks[0], 2);
    const part = await refund(weeks[0], { amount: 25, reason: 'Late start' });
    expect(part.json().refund).toMatchObject({ refundedTotal: 25, left: 75 });
    expect((await bookingOf(weeks[0])).status).toBe('confirmed');
    const tooMuch = await refund(weeks[0], { amount: 80, reason: 'Too much' });
    expect(tooMuch.json().message).toBe(MONEY_MSG.tooMuch('$75.00'));
    expect(await consoleRow(user, weeks[0])).toMatchObject({ paidWith: 'balance', refunded: 25, refundable: 75 });
    expect(await consoleRow(user, weeks[2])).toMatchObject({ refunded: 0, refundable: 100 });
    expect(paypalRefundsOf(captureId)).toEqual(['100.00', '25.00']);
    await ledgerIsClean();
  });
});

describe('a part refund of a session paid from a balance on the payments and earnings pages', () => {
  it('the week’s row shows what went back, the fee kept in proportion, and the rows add up to the totals', async () => {
    const { trainer, user, weeks } = await seriesWeeks();
    const part = await refund(weeks[0], { amount: 25, reason: 'Late start' });
    expect(part.statusCode, part.body).toBe(200);
    const pageOf = async (token: string) => {
      const res = await t.app.inject({ url: '/api/payments', headers: auth(token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as TPaymentsResponse;
    };
    const cents = (dollars: number) => Math.round(dollars * 100);

    const mine = await pageOf(user.token);
    expect(mine.payments.find((p) => p.bookingId === weeks[0])).toMatchObject({
      status: 'completed',
      amount: 100,
      refunded: 25,
      net: 75,
    });
    expect(mine.totals.refunded).toBe(25);
    expect(mine.totals.net).toBe(mine.totals.charged - 25);

    // the trainer keeps $75 of the week, less its fee of 10% of $75
    const earnings = await pageOf(trainer.token);
    expect(earnings.payments.find((p) => p.bookingId === weeks[0])).toMatchObject({
      status: 'completed',
      amount: 100,
      refunded: 25,
      fee: 7.5,
      net: 67.5,
    });
    const sum = (pick: (p: TPayment) => number) => earnings.payments.reduce((total, p) => total + cents(pick(p)), 0);
    expect(sum((p) => p.net)).toBe(cents(earnings.totals.net));
    expect(sum((p) => p.fee)).toBe(cents(earnings.totals.fees));
    expect(sum((p) => p.refunded ?? 0)).toBe(cents(earnings.totals.refunded));
    await ledgerIsClean();
  });
});

describe('disputes of sessions paid from a balance', () => {
  it('a package session disputed, its payout waiting, decided by an operator with a part refund to the card', async () => {
    const { user, captureId, first } = await packageSessions();
    await endedAgo(first, 2);
    // as the sweep sees it once the time to dispute is over (docs/decisions/050-payable-after-the-dispute-window.md)
    const afterWindow = () => new Date(Date.now() + (POLICY_V1.disputeHours + 1) * 3_600_000);
    const shareDue = async () => (await dueShares(db, afterWindow(), POLICY_V1.disputeHours)).some((s) => s.bookingId === first);
    expect(await shareDue()).toBe(true);
    const opened = await dispute(user.token, first);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ message: DISPUTE_MSG.opened, dispute: { status: 'open', rule: null } });
    expect(await shareDue()).toBe(false);
    const open = (await openDisputes()).find((d) => d.bookingId === first)!;
    expect(open).toMatchObject({ paid: 90, refundable: 90 });
    const tooMuch = await decide(open._id, { outcome: 'refund-part', amount: 95, reason: 'Cut short' });
    expect(tooMuch.statusCode).toBe(400);
    const decided = await decide(open._id, { outcome: 'refund-part', amount: 40, reason: 'Cut short by 25 minutes' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().dispute).toMatchObject({ status: 'decided', outcome: 'refund-part', refunded: 40, refundable: 50 });
    expect(paypalRefundsOf(captureId)).toEqual(['40.00']);
    expect((await refundsOf(first))[0]).toMatchObject({ key: `dispute:${open._id}`, status: 'completed', amountCents: 4000 });
    expect(mailsTo(user.email, 'Refunded: $40.00')[0].text).toContain('Reason: Dispute decided: Cut short by 25 minutes.');
    expect(await shareDue()).toBe(true);
    expect(await balancesOf(user.token)).toMatchObject([{ sessionsLeft: 2, amount: 180 }]);
    await ledgerIsClean();
  });

  it('the rules table for a series week: the trainer cancelled with money left (refunded in full), or refunded already', async () => {
    const { trainer, user, captureId, weeks } = await seriesWeeks();
    // cancelled by the trainer while its money was not given back
    await endedAgo(weeks[0], 1);
    await db
      .update(bookings)
      .set({ status: 'cancelled', cancelledBy: 'trainer', cancelledAt: new Date() })
      .where(eq(bookings.id, weeks[0]));
    const byRule = await dispute(user.token, weeks[0]);
    expect(byRule.statusCode, byRule.body).toBe(201);
    expect(byRule.json()).toMatchObject({
      message: DISPUTE_MSG.trainerCancelled,
      dispute: { status: 'decided', rule: 'trainer-cancelled', outcome: 'refund-full', refunded: 100 },
    });
    expect(paypalRefundsOf(captureId)).toEqual(['100.00']);
    expect(
      await db.select({ key: refunds.key, status: refunds.status }).from(refunds).where(eq(refunds.bookingId, weeks[0])),
    ).toEqual([{ key: `dispute-open:${weeks[0]}`, status: 'completed' }]);

    // a week its trainer cancelled through Spotter went back to the card with its cancellation
    const cancelled = await cancel(t, trainer.token, weeks[1], { reason: 'Injured' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const closed = await dispute(user.token, weeks[1]);
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json()).toMatchObject({
      message: DISPUTE_MSG.refundedAlready,
      dispute: { rule: 'refunded-already', outcome: 'closed' },
    });
    expect(paypalRefundsOf(captureId)).toEqual(['100.00', '100.00']);
    await ledgerIsClean();
  });
});

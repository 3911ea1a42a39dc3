// The console's sessions and refunds (docs/product.md#refunds-by-operators): an operator refunds a
// session's card payment in full or in part at any time, with a reason, through PayPal's real adapter
// (against the local fake of its REST API): the ledger balances, both people are mailed, the audit log
// records it, and a PayPal that does not answer leaves the refund pending for its job.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MONEY_MSG, type TConsoleBooking } from '@spotter/shared';
import { bookings, payments } from '../src/db/schema';
import { checkLedger } from '../src/modules/money/ledger-check';
import { createAccount } from './helper';
import { auth, bookableTrainer, bookAndPay, hold, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';
import { usePaypalApp } from './support/paypal-app';
import { until } from './support/until';

const { t, paypal } = await usePaypalApp();
const operator = await signedInOperator(t);
const op = { authorization: operator.token };

const refund = (bookingId: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/console/bookings/${bookingId}/refund`, headers: op, payload: body });
const bookingOf = async (id: string) => (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0];
const paymentOf = async (id: string) => (await t.database.db.select().from(payments).where(eq(payments.bookingId, id)))[0];
const search = async (q: string) => {
  const res = await t.app.inject({ url: `/api/console/bookings?q=${encodeURIComponent(q)}`, headers: op });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().bookings as TConsoleBooking[];
};

async function paidSession(price = 200) {
  const trainer = await bookableTrainer(t, { price });
  const user = await createAccount(t, 'user');
  const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(72));
  return { trainer, user, bookingId };
}

describe('POST /api/console/bookings/:id/refund', () => {
  it('refunds part, then the rest: PayPal gives back each, the ledger balances, both are mailed, the audit log has both', async () => {
    const { user, trainer, bookingId } = await paidSession(200);
    const capture = (await paymentOf(bookingId)).captureId;

    const part = await refund(bookingId, { amount: 50.25, reason: 'Session started 20 minutes late' });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toEqual({
      refund: { bookingId, amount: 50.25, status: 'completed', refundedTotal: 50.25, left: 149.75 },
      message: MONEY_MSG.refunded('$50.25'),
    });
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === capture).map((r) => r.amount)).toEqual(['50.25']);
    // a part: the session stays booked and paid
    expect((await bookingOf(bookingId)).status).toBe('confirmed');
    expect((await paymentOf(bookingId)).status).toBe('completed');
    const userMail = t.outbox().filter((m) => m.to === user.email && m.subject.startsWith('Refunded'));
    expect(userMail).toHaveLength(1);
    expect(userMail[0].text).toContain('Spotter refunded $50.25 of your session');
    expect(userMail[0].text).toContain('Reason: Session started 20 minutes late.');
    expect(t.outbox().filter((m) => m.to === trainer.email && m.subject.startsWith('Refunded to'))).toHaveLength(1);
    expect((await search(user.email))[0]).toMatchObject({
      _id: bookingId,
      paidWith: 'card',
      refunded: 50.25,
      refundable: 149.75,
    });

    // the rest, without an amount: all of it goes back and the upcoming session is cancelled
    const rest = await refund(bookingId, { reason: 'Trainer unreachable since' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().refund).toEqual({ bookingId, amount: 149.75, status: 'completed', refundedTotal: 200, left: 0 });
    expect((await bookingOf(bookingId)).status).toBe('refunded');
    expect((await paymentOf(bookingId)).status).toBe('refunded');
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === capture).map((r) => r.amount)).toEqual(['50.25', '149.75']);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
    const ledger = await t.app.inject({ url: '/api/console/ledger', headers: op });
    expect(ledger.statusCode).toBe(200);
    expect(ledger.json().differences).toEqual([]);

    const audit = (await t.app.inject({ url: `/api/console/audit?targetId=${bookingId}`, headers: op })).json().entries;
    expect(audit.map((e: { action: string; reason: string }) => [e.action, e.reason])).toEqual([
      ['booking.refund', 'Trainer unreachable since'],
      ['booking.refund', 'Session started 20 minutes late'],
    ]);
    expect(audit[1]).toMatchObject({ operatorId: operator.id, before: { refundedCents: 0 }, after: { refundedCents: 5025 } });

    // nothing left
    const again = await refund(bookingId, { reason: 'Once more' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MONEY_MSG.nothingLeft);
  });

  it('refuses more than is left, an unknown session and one with no card payment, changing nothing', async () => {
    const { bookingId } = await paidSession(150);
    const tooMuch = await refund(bookingId, { amount: 150.01, reason: 'Too much' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(MONEY_MSG.tooMuch('$150.00'));
    expect((await refund(bookingId, { amount: 10.005, reason: 'Fractions' })).statusCode).toBe(400);
    expect((await refund(bookingId, { amount: 10, reason: '' })).statusCode).toBe(400);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await refund(id, { reason: 'Unknown' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(MONEY_MSG.bookingNotFound);
    }
    // a hold nobody paid
    const trainer = await bookableTrainer(t);
    const user = await createAccount(t, 'user');
    const held = await hold(t, user.token, trainer.id, hourFromNow(60));
    const unpaid = await refund(held.json().booking._id, { reason: 'Nothing paid' });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().message).toBe(MONEY_MSG.notCardPaid);
    expect((await paymentOf(bookingId)).status).toBe('completed');
    expect((await t.app.inject({ url: `/api/console/audit?targetId=${bookingId}`, headers: op })).json().entries).toEqual([]);
  });

  it('with PayPal down: the refund is pending, then its job makes it once', async () => {
    const { bookingId, user } = await paidSession(120);
    const capture = (await paymentOf(bookingId)).captureId;
    paypal.failNext('refund', 'server-error');
    const res = await refund(bookingId, { amount: 20, reason: 'Cut short' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      refund: { status: 'pending', refundedTotal: 0, left: 100 },
      message: MONEY_MSG.pending('$20.00'),
    });
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === capture)).toEqual([]);
    // the same request again (a retry) is not a second refund of what is being asked
    expect((await search(user.email))[0].refundable).toBe(100);
    await until(async () => {
      await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * 60_000) });
      return paypal.state.ledger.refunds.some((r) => r.captureId === capture);
    }, 'the job to make the refund');
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === capture).map((r) => r.amount)).toEqual(['20.00']);
    await until(
      async () => t.outbox().some((m) => m.to === user.email && m.subject.startsWith('Refunded: $20.00')),
      'the mail after the job',
    );
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
  });
});

describe('GET /api/console/bookings', () => {
  it('finds sessions by id, by a person’s name or e-mail, and by status', async () => {
    const { bookingId, trainer } = await paidSession(130);
    expect((await search(bookingId)).map((b) => b._id)).toEqual([bookingId]);
    expect((await search(trainer.email)).map((b) => b._id)).toEqual([bookingId]);
    const res = await t.app.inject({ url: `/api/console/bookings?q=${trainer.email}&status=refunded`, headers: op });
    expect(res.json().bookings).toEqual([]);
    const member = await t.app.inject({ url: '/api/console/bookings', headers: auth(trainer.token) });
    expect(member.statusCode).toBe(403);
  });
});

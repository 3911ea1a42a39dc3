// Trainers paid out (issue 30, docs/decisions/042-money-ledger.md#payouts): the payout address, a
// share payable once the time to dispute its session ended (docs/decisions/050-payable-after-the-dispute-window.md;
// never for a cancelled one), payouts in batches that a
// retry pays once, returned ones back in the payable balance with the trainer told; the earnings
// totals and the payout list equal the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYOUT_MSG, SERVER_MSG } from '@spotter/shared';
import { bookings, payouts } from '../../src/db/schema';
import { account, balance, hasTransaction } from '../../src/modules/money';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, hourFromNow } from '../support/bookings';
import { buildMoneyApp, ledgerKindsOf, ledgerSums, postPaymentOf, scriptedPayouts } from './money-app';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;
const MINUTE = 60_000;

const scripted = scriptedPayouts();
let m: Awaited<ReturnType<typeof buildMoneyApp>>;
beforeAll(async () => {
  m = await buildMoneyApp(t, scripted.provider);
});
afterAll(() => m.close());

/** The jobs run as of `at` (each test moves later than the one before: the jobs are recurring). */
let last = 0;
async function runJobsAt(at: number) {
  if (at <= last) throw new Error('the test clock only moves forward');
  last = at;
  m.setNow(new Date(at));
  await m.jobs.runDue({ now: new Date(at) });
  m.setNow(new Date());
}

const setAddress = (token: string | undefined, email: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/trainer/payout', headers: auth(token), payload: { email } });
const earnings = async (token: string) => {
  const res = await t.app.inject({ url: '/api/payments', headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json().totals as { pending: number; payable: number; paidOut: number };
};
const payoutList = async (token: string) => {
  const res = await t.app.inject({ url: '/api/payouts', headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json().payouts as Array<{ _id: string; amount: number; status: string; sessions: number; email: string }>;
};
/** A trainer's ledger balances, in dollars. */
async function ledgerOf(trainerId: string) {
  const cents = async (a: string) => balance(db, a);
  return {
    pending: (await cents(account.trainerPending(trainerId))) / 100,
    payable: (await cents(account.trainerPayable(trainerId))) / 100,
    paying: (await cents(account.trainerPaying(trainerId))) / 100,
  };
}

/** A paid session of a new trainer (price 200: the trainer's share is 200 minus the platform fee). */
async function paidSession(hoursAhead: number, { address }: { address?: string } = {}) {
  const trainer = await bookableTrainer(t, { price: 200 });
  if (address) expect((await setAddress(trainer.token, address)).statusCode).toBe(200);
  const user = await createAccount(t, 'user');
  const startsAt = hourFromNow(hoursAhead);
  const { bookingId } = await bookAndPay(m.as, user.token, trainer.id, startsAt);
  const { shareCents } = await postPaymentOf(t, bookingId);
  return { trainer, user, bookingId, share: shareCents / 100, endsAt: Date.parse(startsAt) + HOUR };
}

describe('the payout address', () => {
  it('a trainer saves a PayPal e-mail and reads it back; none at first', async () => {
    const trainer = await createAccount(t, 'trainer');
    const first = await t.app.inject({ url: '/api/trainer/payout', headers: auth(trainer.token) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ email: null });
    expect(first.headers['cache-control']).toBe('private, no-store');

    const saved = await setAddress(trainer.token, 'Coach.Payouts@Example.com');
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ message: PAYOUT_MSG.addressSaved });
    expect(saved.headers['cache-control']).toBe('private, no-store');
    const again = await t.app.inject({ url: '/api/trainer/payout', headers: auth(trainer.token) });
    expect(again.json().email).toBe(saved.json().email);
    expect(again.json().email.toLowerCase()).toBe('coach.payouts@example.com');

    expect((await setAddress(trainer.token, 'not an e-mail')).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/trainer/payout', headers: auth(trainer.token) })).json().email).toBe(
      saved.json().email,
    );
  });

  it('a change of address is mailed to the account’s own address (not the new one), a save of the same one is not', async () => {
    const trainer = await createAccount(t, 'trainer');
    const told = () => t.outbox().filter((m) => m.subject === 'Your payout address was changed');
    const before = told().length;
    expect((await setAddress(trainer.token, 'first.payouts@example.com')).statusCode).toBe(200);
    expect((await setAddress(trainer.token, 'first.payouts@example.com')).statusCode).toBe(200);
    expect((await setAddress(trainer.token, 'other.payouts@example.com')).statusCode).toBe(200);
    const mails = told().slice(before);
    expect(mails.map((m) => m.to)).toEqual([trainer.email, trainer.email]);
    expect(mails[1].text).toContain(`${PAYOUT_MSG.addressChanged} other.payouts@example.com.`);
    expect(mails[1].text).toContain(PAYOUT_MSG.addressChangedNotYou);
  });

  it('is for trainers: a user is refused in the product’s words, a visitor must log in', async () => {
    const user = await createAccount(t, 'user');
    for (const res of [
      await t.app.inject({ url: '/api/trainer/payout', headers: auth(user.token) }),
      await setAddress(user.token, 'me@example.com'),
      await t.app.inject({ url: '/api/payouts', headers: auth(user.token) }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(PAYOUT_MSG.onlyTrainers);
    }
    for (const res of [
      await t.app.inject({ url: '/api/trainer/payout' }),
      await setAddress(undefined, 'me@example.com'),
      await t.app.inject({ url: '/api/payouts' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(SERVER_MSG.noToken);
    }
    // a user's earnings carry no trainer totals
    const totals = (await t.app.inject({ url: '/api/payments', headers: auth(user.token) })).json().totals;
    expect(totals).not.toHaveProperty('payable');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    expect(Object.keys(doc.paths['/api/trainer/payout'] ?? {})).toEqual(expect.arrayContaining(['get', 'put']));
    expect(Object.keys(doc.paths['/api/payouts'] ?? {})).toEqual(['get']);
  });
});

describe('a session’s share', () => {
  it('becomes payable once the time to dispute the session ended (48 hours), never for a cancelled one', async () => {
    const done = await paidSession(3);
    // the same trainer's second session, cancelled by the trainer before it starts
    const user2 = await createAccount(t, 'user');
    const cancelled = (await bookAndPay(m.as, user2.token, done.trainer.id, hourFromNow(5))).bookingId;
    await postPaymentOf(t, cancelled);
    expect((await cancel(m.as, done.trainer.token, cancelled, { reason: 'Injured' })).statusCode).toBe(200);

    const before = await earnings(done.trainer.token);
    expect(before.payable).toBe(0);
    expect(before.pending).toBeGreaterThanOrEqual(done.share);

    // a day and more after the session, its user may still dispute it: the share waits
    for (const hours of [24, 30, 47]) {
      await runJobsAt(done.endsAt + hours * HOUR + 11 * MINUTE);
      expect((await earnings(done.trainer.token)).payable).toBe(0);
      expect(await hasTransaction(db, `payable:${done.bookingId}`)).toBe(false);
    }

    await runJobsAt(done.endsAt + 49 * HOUR);
    const after = await earnings(done.trainer.token);
    expect(after.payable).toBe(done.share);
    expect(after.pending).toBe(before.pending - done.share);
    expect(after).toMatchObject({ paidOut: 0 }); // no payout address: nothing is sent
    expect(await ledgerKindsOf(t, done.bookingId)).toEqual(['payment', 'payable']);
    expect(await hasTransaction(db, `payable:${cancelled}`)).toBe(false);
    expect(await payoutList(done.trainer.token)).toEqual([]);

    // later sweeps move nothing twice
    await runJobsAt(done.endsAt + 50 * HOUR);
    expect((await earnings(done.trainer.token)).payable).toBe(done.share);
    expect(await ledgerOf(done.trainer.id)).toMatchObject({ payable: done.share });
  });

  it('waits for the dispute hours frozen on the booking, and 48 for a session booked before policies', async () => {
    const longer = await paidSession(6);
    const older = await paidSession(6);
    await db
      .update(bookings)
      .set({ policy: { version: 2, cancelHours: 24, disputeHours: 72 } })
      .where(eq(bookings.id, longer.bookingId));
    await db.update(bookings).set({ policy: null }).where(eq(bookings.id, older.bookingId));

    await runJobsAt(longer.endsAt + 49 * HOUR + 11 * MINUTE);
    expect(await hasTransaction(db, `payable:${older.bookingId}`)).toBe(true);
    expect(await hasTransaction(db, `payable:${longer.bookingId}`)).toBe(false);
    await runJobsAt(longer.endsAt + 71 * HOUR);
    expect(await hasTransaction(db, `payable:${longer.bookingId}`)).toBe(false);
    await runJobsAt(longer.endsAt + 72 * HOUR + 11 * MINUTE);
    expect((await earnings(longer.trainer.token)).payable).toBe(longer.share);
  });
});

describe('a payout', () => {
  it('pays the payable balance through the demo provider; the list and totals equal the ledger', async () => {
    const s = await paidSession(60, { address: 'coach.demo@example.com' });
    await runJobsAt(s.endsAt + 48 * HOUR + 11 * MINUTE);

    const list = await payoutList(s.trainer.token);
    expect(list).toEqual([
      expect.objectContaining({ amount: s.share, currency: 'USD', status: 'paid', sessions: 1, email: 'coach.demo@example.com' }),
    ]);
    expect(await earnings(s.trainer.token)).toMatchObject({ pending: 0, payable: 0, paidOut: s.share });
    expect(await ledgerOf(s.trainer.id)).toEqual({ pending: 0, payable: 0, paying: 0 });
    expect(await hasTransaction(db, `payout:${list[0]._id}`)).toBe(true);
    expect(await hasTransaction(db, `payout-paid:${list[0]._id}`)).toBe(true);
    expect(scripted.state.paid.filter((p) => p.senderItemId === list[0]._id)).toEqual([
      expect.objectContaining({ email: 'coach.demo@example.com', amountCents: Math.round(s.share * 100) }),
    ]);
    for (const sum of Object.values(await ledgerSums(t))) expect(sum).toBe(0);

    // the next runs pay nothing more
    await runJobsAt(s.endsAt + 49 * HOUR);
    expect(await payoutList(s.trainer.token)).toHaveLength(1);
  });

  it('a batch that times out stays pending and is sent again with the same sender_batch_id: paid once', async () => {
    const s = await paidSession(120, { address: 'coach.slow@example.com' });
    scripted.state.timeoutAfterPaying = 1;
    await runJobsAt(s.endsAt + 48 * HOUR + 11 * MINUTE);

    const [pending] = await payoutList(s.trainer.token);
    expect(pending).toMatchObject({ amount: s.share, status: 'pending', sessions: 1 });
    // in a payout: still the trainer's payable money, not paid out
    expect(await earnings(s.trainer.token)).toMatchObject({ payable: s.share, paidOut: 0 });
    expect(await ledgerOf(s.trainer.id)).toMatchObject({ payable: 0, paying: s.share });
    const [row] = await db.select().from(payouts).where(eq(payouts.id, pending._id));
    const sent = scripted.state.calls.filter((c) => c.senderBatchId === row.batchKey);
    expect(sent).toHaveLength(1);

    await runJobsAt(s.endsAt + 48 * HOUR + 22 * MINUTE);
    expect(scripted.state.calls.filter((c) => c.senderBatchId === row.batchKey)).toHaveLength(2);
    expect(scripted.state.paid.filter((p) => p.senderItemId === pending._id)).toHaveLength(1);
    expect(await payoutList(s.trainer.token)).toEqual([expect.objectContaining({ _id: pending._id, status: 'paid' })]);
    expect(await earnings(s.trainer.token)).toMatchObject({ payable: 0, paidOut: s.share });
    expect(await ledgerOf(s.trainer.id)).toEqual({ pending: 0, payable: 0, paying: 0 });
  });

  it('an item the provider reports UNCLAIMED goes back to the payable balance and the trainer is told', async () => {
    const s = await paidSession(200, { address: 'nobody.there@example.com' });
    scripted.state.itemStatus = 'UNCLAIMED';
    try {
      await runJobsAt(s.endsAt + 48 * HOUR + 11 * MINUTE);
      const [sent] = await payoutList(s.trainer.token);
      expect(sent).toMatchObject({ status: 'sent', amount: s.share });
      expect(m.mails.filter((x) => x.to === s.trainer.email && x.text.includes(PAYOUT_MSG.returned))).toEqual([]);

      // the next sweep asks the provider: unclaimed
      await runJobsAt(s.endsAt + 48 * HOUR + 22 * MINUTE);
      const returned = (await payoutList(s.trainer.token)).find((p) => p._id === sent._id);
      expect(returned).toMatchObject({ status: 'returned' });
      // not sent again to the address it came back from
      expect(await payoutList(s.trainer.token)).toHaveLength(1);
      expect(await earnings(s.trainer.token)).toMatchObject({ payable: s.share, paidOut: 0 });
      expect(await ledgerOf(s.trainer.id)).toMatchObject({ payable: s.share, paying: 0 });
      expect(await hasTransaction(db, `payout-returned:${sent._id}`)).toBe(true);
      const told = m.mails.filter((x) => x.to === s.trainer.email && x.text.includes(PAYOUT_MSG.returned));
      expect(told).toHaveLength(1);
      expect(told[0].text).toContain('nobody.there@example.com');
      for (const sum of Object.values(await ledgerSums(t))) expect(sum).toBe(0);
    } finally {
      scripted.state.itemStatus = undefined;
    }

    // with a new address, the next payout pays it, the session counted again
    expect((await setAddress(s.trainer.token, 'coach.found@example.com')).statusCode).toBe(200);
    await runJobsAt(s.endsAt + 48 * HOUR + 40 * MINUTE);
    const [latest] = await payoutList(s.trainer.token);
    expect(latest).toMatchObject({ status: 'paid', amount: s.share, sessions: 1, email: 'coach.found@example.com' });
    expect(await earnings(s.trainer.token)).toMatchObject({ payable: 0, paidOut: s.share });
  });
});

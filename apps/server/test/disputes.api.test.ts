// Disputes by rule (docs/decisions/047-disputes-by-rule.md): every row of the rules table, the refusals,
// an operator's decisions through the money layer, and the payout that waits while a dispute is open
// (docs/decisions/050-payable-after-the-dispute-window.md), also against a sweep at the same moment.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DISPUTE_MSG, MONEY_MSG, POLICY_V1, type TBooking, type TConsoleDispute } from '@spotter/shared';
import { bookings, disputes, payments, refunds } from '../src/db/schema';
import { decideByRule } from '../src/modules/bookings/disputes';
import { lockShare } from '../src/modules/bookings/payments.repo';
import { account, balance, hasTransaction } from '../src/modules/money';
import { checkLedger } from '../src/modules/money/ledger-check';
import { dueShares } from '../src/modules/money/payouts.repo';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, hold, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';

const t = await useTestApp();
const operator = await signedInOperator(t);
const op = { authorization: operator.token };
const HOUR = 60 * 60_000;

const dispute = (
  token: string,
  bookingId: string,
  body: Record<string, unknown> = { reason: 'trainer-absent', note: 'Waited 40 minutes' },
) => t.app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/dispute`, headers: auth(token), payload: body });
const decide = (id: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/console/disputes/${id}/decide`, headers: op, payload: body });
const paymentOf = async (id: string) => (await t.database.db.select().from(payments).where(eq(payments.bookingId, id)))[0];

/** A paid session ($200) moved to have ended `endedHoursAgo` hours ago. */
async function pastSession(endedHoursAgo = 2) {
  const trainer = await bookableTrainer(t, { price: 200 });
  const user = await createAccount(t, 'user');
  const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(72));
  const endsAt = new Date(Date.now() - endedHoursAgo * HOUR);
  await t.database.db
    .update(bookings)
    .set({ startsAt: new Date(endsAt.getTime() - HOUR), endsAt })
    .where(eq(bookings.id, bookingId));
  return { trainer, user, bookingId };
}
const myBooking = async (token: string, id: string) =>
  ((await t.app.inject({ url: '/api/bookings', headers: auth(token) })).json().bookings as TBooking[]).find((b) => b._id === id)!;
const queue = async () =>
  (await t.app.inject({ url: '/api/console/disputes?status=open', headers: op })).json().disputes as TConsoleDispute[];

describe('the rules table', () => {
  const base = { now: new Date('2026-12-10T12:00:00Z'), endsAt: new Date('2026-12-09T12:00:00Z'), disputeHours: 48 };
  it.each([
    [
      'too late: 48 hours after the end passed',
      { ...base, now: new Date('2026-12-11T12:00:01Z'), paidCents: 100, askedCents: 0, cancelledBy: null },
      { rule: 'too-late', outcome: 'closed' },
    ],
    [
      'on the last second it is in time',
      { ...base, now: new Date('2026-12-11T12:00:00Z'), paidCents: 100, askedCents: 0, cancelledBy: null },
      { rule: 'operator' },
    ],
    [
      'refunded in full already',
      { ...base, paidCents: 100, askedCents: 100, cancelledBy: 'trainer' },
      { rule: 'refunded-already', outcome: 'closed' },
    ],
    [
      'the trainer cancelled and money is left',
      { ...base, paidCents: 100, askedCents: 40, cancelledBy: 'trainer' },
      { rule: 'trainer-cancelled', outcome: 'refund-full' },
    ],
    [
      'the user cancelled: the rules cannot decide',
      { ...base, paidCents: 100, askedCents: 0, cancelledBy: 'user' },
      { rule: 'operator' },
    ],
    [
      'a session that took place: the rules cannot decide',
      { ...base, paidCents: 100, askedCents: 0, cancelledBy: null },
      { rule: 'operator' },
    ],
  ] as const)('%s', (_name, facts, expected) => {
    expect(decideByRule(facts)).toEqual(expected);
  });
});

describe('POST /api/bookings/:id/dispute', () => {
  it('opens a dispute an operator decides; the payout waits until then; a part refund goes through PayPal’s money layer', async () => {
    const { user, trainer, bookingId } = await pastSession(2);
    const before = await myBooking(user.token, bookingId);
    expect(before.disputableUntil).toBe(new Date(Date.parse(before.endsAt) + 48 * HOUR).toISOString());
    expect((await myBooking(trainer.token, bookingId)).disputableUntil).toBeNull();
    // asked as of an hour after the time to dispute it is over
    const afterWindow = () => new Date(Date.parse(before.endsAt) + 49 * HOUR);
    const shareDue = async () =>
      (await dueShares(t.database.db, afterWindow(), POLICY_V1.disputeHours)).some((s) => s.bookingId === bookingId);
    expect(await shareDue()).toBe(true);

    const res = await dispute(user.token, bookingId, { reason: 'cut-short', note: 'Ended after 20 minutes' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: DISPUTE_MSG.opened,
      dispute: { bookingId, reason: 'cut-short', note: 'Ended after 20 minutes', status: 'open', rule: null, outcome: null },
    });
    expect(await myBooking(user.token, bookingId)).toMatchObject({ disputableUntil: null, disputeStatus: 'open' });
    // the payout waits
    expect(await shareDue()).toBe(false);
    const again = await dispute(user.token, bookingId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(DISPUTE_MSG.already);

    const open = (await queue()).find((d) => d.bookingId === bookingId)!;
    expect(open).toMatchObject({ status: 'open', paid: 200, refundable: 200, userId: user.id, trainerId: trainer.id });
    const noAmount = await decide(open._id, { outcome: 'refund-part', reason: 'Cut short by the trainer' });
    expect(noAmount.statusCode).toBe(400);
    const tooMuch = await decide(open._id, { outcome: 'refund-part', amount: 250, reason: 'Cut short by the trainer' });
    expect(tooMuch.statusCode).toBe(400);
    const decided = await decide(open._id, { outcome: 'refund-part', amount: 120, reason: 'Cut short by the trainer' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({
      message: DISPUTE_MSG.decided,
      dispute: {
        status: 'decided',
        rule: 'operator',
        outcome: 'refund-part',
        refunded: 120,
        refundable: 80,
        decisionReason: 'Cut short by the trainer',
      },
    });
    expect(t.outbox().some((m) => m.to === user.email && m.subject.startsWith('Refunded: $120.00'))).toBe(true);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
    expect(await myBooking(user.token, bookingId)).toMatchObject({ disputeStatus: 'decided' });
    // settled: the rest of the share is due again
    expect(await shareDue()).toBe(true);
    const twice = await decide(open._id, { outcome: 'no-refund', reason: 'Second look' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(DISPUTE_MSG.decidedAlready);
    const audit = (await t.app.inject({ url: `/api/console/audit?targetId=${open._id}`, headers: op })).json().entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'dispute.decide',
      operatorId: operator.id,
      after: { outcome: 'refund-part', refundCents: 12000 },
    });
  });

  it('decides by rule: too late (closed), refunded already (closed), the trainer cancelled (refunded in full)', async () => {
    const late = await pastSession(49);
    expect((await myBooking(late.user.token, late.bookingId)).disputableUntil).toBeNull();
    const tooLate = await dispute(late.user.token, late.bookingId);
    expect(tooLate.statusCode, tooLate.body).toBe(201);
    expect(tooLate.json().dispute).toMatchObject({ status: 'decided', rule: 'too-late', outcome: 'closed', refunded: null });
    expect(tooLate.json().message).toContain('The time to dispute this session ended on');

    const refunded = await pastSession(3);
    const full = await t.app.inject({
      method: 'POST',
      url: `/api/console/bookings/${refunded.bookingId}/refund`,
      headers: op,
      payload: { reason: 'Goodwill' },
    });
    expect(full.statusCode, full.body).toBe(200);
    const closed = await dispute(refunded.user.token, refunded.bookingId);
    expect(closed.json()).toMatchObject({
      message: DISPUTE_MSG.refundedAlready,
      dispute: { rule: 'refunded-already', outcome: 'closed' },
    });

    // a session the trainer cancelled whose money did not go back
    const cancelled = await pastSession(1);
    await t.database.db
      .update(bookings)
      .set({ status: 'cancelled', cancelledBy: 'trainer', cancelledAt: new Date() })
      .where(eq(bookings.id, cancelled.bookingId));
    const byRule = await dispute(cancelled.user.token, cancelled.bookingId);
    expect(byRule.statusCode, byRule.body).toBe(201);
    expect(byRule.json()).toMatchObject({
      message: DISPUTE_MSG.trainerCancelled,
      dispute: { status: 'decided', rule: 'trainer-cancelled', outcome: 'refund-full', refunded: 200 },
    });
    expect((await paymentOf(cancelled.bookingId)).status).toBe('refunded');
    expect((await queue()).map((d) => d.bookingId)).not.toContain(cancelled.bookingId);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
  });

  it('refuses a session not over, not paid, not theirs, a trainer and bad input', async () => {
    const trainer = await bookableTrainer(t);
    const user = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(30));
    const notOver = await dispute(user.token, bookingId);
    expect(notOver.statusCode).toBe(409);
    expect(notOver.json().message).toBe(DISPUTE_MSG.notOver);
    const held = await hold(t, user.token, trainer.id, hourFromNow(40));
    const unpaid = await dispute(user.token, held.json().booking._id);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().message).toBe(DISPUTE_MSG.notPaid);
    const other = await createAccount(t, 'user');
    expect((await dispute(other.token, bookingId)).statusCode).toBe(404);
    expect((await dispute(trainer.token, bookingId)).statusCode).toBe(403);
    expect((await dispute(user.token, 'not-an-id')).statusCode).toBe(404);
    const bad = await dispute(user.token, bookingId, { reason: 'bored' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose what went wrong');
  });

  it('an operator decides no refund, or a full one', async () => {
    const a = await pastSession(5);
    const b = await pastSession(6);
    expect((await dispute(a.user.token, a.bookingId)).statusCode).toBe(201);
    expect((await dispute(b.user.token, b.bookingId, { reason: 'other', note: '' })).statusCode).toBe(201);
    const [da, db] = [a, b].map((s) => s.bookingId).map(async (id) => (await queue()).find((d) => d.bookingId === id)!._id);
    const none = await decide(await da, { outcome: 'no-refund', reason: 'The trainer’s photos show the session' });
    expect(none.json().dispute).toMatchObject({ outcome: 'no-refund', refunded: 0 });
    expect((await paymentOf(a.bookingId)).status).toBe('completed');
    const all = await decide(await db, { outcome: 'refund-full', reason: 'No answer from the trainer' });
    expect(all.json().dispute).toMatchObject({ outcome: 'refund-full', refunded: 200, refundable: 0 });
    expect((await paymentOf(b.bookingId)).status).toBe('refunded');
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
  });

  // a defect a review found (fixed): a dispute's refund was keyed by what had been asked back before,
  // the same key as an operator's refund read at the same moment; the request whose row the other had
  // written answered success without its decision, or its refund, being made
  it('a decision racing an operator’s refund of the same session: what was paid goes back once, each answer says what it did', async () => {
    const { bookingId, user } = await pastSession(7);
    expect((await dispute(user.token, bookingId)).statusCode).toBe(201);
    const open = (await queue()).find((d) => d.bookingId === bookingId)!;
    const [decided, refunded] = await Promise.all([
      decide(open._id, { outcome: 'refund-full', reason: 'No answer from the trainer' }),
      t.app.inject({
        method: 'POST',
        url: `/api/console/bookings/${bookingId}/refund`,
        headers: op,
        payload: { reason: 'Goodwill' },
      }),
    ]);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
    expect(rows.map((r) => [r.amountCents, r.status])).toEqual([[20_000, 'completed']]);
    const auditOf = async (id: string) =>
      (await t.app.inject({ url: `/api/console/audit?targetId=${id}`, headers: op })).json().entries as unknown[];
    // what each answer says it gave back adds up to what went back, and each is in the audit log
    let claimed = 0;
    if (decided.statusCode === 200) {
      claimed += decided.json().dispute.refunded;
      expect(await auditOf(open._id)).toHaveLength(1);
    } else {
      expect(decided.statusCode, decided.body).toBe(409);
      expect(decided.json().message).toBe(MONEY_MSG.nothingLeft);
      expect(await auditOf(open._id)).toEqual([]);
      expect((await queue()).map((d) => d._id)).toContain(open._id);
    }
    if (refunded.statusCode === 200) {
      claimed += refunded.json().refund.amount;
      expect(await auditOf(bookingId)).toHaveLength(1);
    } else {
      expect(refunded.statusCode, refunded.body).toBe(409);
      expect(refunded.json().message).toBe(MONEY_MSG.nothingLeft);
      expect(await auditOf(bookingId)).toEqual([]);
    }
    expect(claimed).toBe(200);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
  });

  it('two operators deciding a refund at once: one decides and refunds, the other is told it was decided', async () => {
    const { bookingId, user } = await pastSession(8);
    expect((await dispute(user.token, bookingId)).statusCode).toBe(201);
    const open = (await queue()).find((d) => d.bookingId === bookingId)!;
    const answers = await Promise.all([
      decide(open._id, { outcome: 'refund-part', amount: 50, reason: 'Late start' }),
      decide(open._id, { outcome: 'refund-part', amount: 50, reason: 'Late start' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join(' ')).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe(DISPUTE_MSG.decidedAlready);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
    expect(rows.map((r) => r.amountCents)).toEqual([5_000]);
    const audit = (await t.app.inject({ url: `/api/console/audit?targetId=${open._id}`, headers: op })).json().entries;
    expect(audit).toHaveLength(1);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
  });
});

// last: the payout sweep runs with a clock hours ahead
describe('the trainer’s share of a disputed session', () => {
  const db = t.database.db;
  /** The jobs as of `hours` from now (the money sweep among them), each call later than the one before. */
  let lastRun = 0;
  const runJobsIn = (hours: number) => {
    const at = Date.now() + hours * HOUR;
    if (at <= lastRun) throw new Error('the jobs’ clock only moves forward');
    lastRun = at;
    return t.app.jobs.runDue({ now: new Date(at) });
  };
  const shareOf = async (bookingId: string) => {
    const p = await paymentOf(bookingId);
    return p.amountCents - p.feeCents;
  };

  it('stays pending when the session is disputed 47 hours after it ended, until the dispute is decided', async () => {
    const { user, trainer, bookingId } = await pastSession(47);
    const share = await shareOf(bookingId);
    // a sweep before it is disputed (47.5 hours after it ended): the time to dispute it is not over
    await runJobsIn(0.5);
    expect(await hasTransaction(db, `payable:${bookingId}`)).toBe(false);
    expect((await dispute(user.token, bookingId)).json().dispute).toMatchObject({ status: 'open' });

    // the time to dispute it is over (49 hours after it ended): the open dispute holds the share
    await runJobsIn(2);
    expect(await hasTransaction(db, `payable:${bookingId}`)).toBe(false);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(share);
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(0);

    // decided without a refund: the next sweep makes the whole share payable
    const open = (await queue()).find((d) => d.bookingId === bookingId)!;
    expect((await decide(open._id, { outcome: 'no-refund', reason: 'The session took place' })).statusCode).toBe(200);
    await runJobsIn(3);
    expect(await hasTransaction(db, `payable:${bookingId}`)).toBe(true);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(share);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)('opened at the moment the sweep reads the share', () => {
    /** A transaction holding the session's share lock until `release` (as a sweep or a dispute in flight would). */
    async function holdShare(bookingId: string) {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = db.transaction(async (tx) => {
        await lockShare(tx, bookingId);
        locked();
        await released;
      });
      await isLocked;
      return async () => {
        release();
        await holder;
      };
    }
    const waiting = async () =>
      Number(
        (
          (await db.execute(
            sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
              and database = (select oid from pg_database where datname = current_database())`,
          )) as unknown as { rows: Array<{ n: number }> }
        ).rows[0].n,
      );
    const untilWaiting = async (n: number) => {
      while ((await waiting()) < n) await new Promise((r) => setImmediate(r));
    };

    it('a dispute inserted while the sweep waits for the share is seen by it: the share stays pending', async () => {
      const { user, trainer, bookingId } = await pastSession(47);
      const share = await shareOf(bookingId);
      const release = await holdShare(bookingId);
      // the dispute waits for the share's lock first, then the sweep (which listed the share as due)
      const opened = dispute(user.token, bookingId);
      await untilWaiting(1);
      const sweep = runJobsIn(4);
      await untilWaiting(2);
      await release();
      expect((await opened).json().dispute).toMatchObject({ status: 'open' });
      await sweep;
      expect(await hasTransaction(db, `payable:${bookingId}`)).toBe(false);
      expect(await balance(db, account.trainerPending(trainer.id))).toBe(share);
    });

    it('a share the sweep made payable first: the dispute waiting for it is too late, and nothing is recorded', async () => {
      const { user, bookingId } = await pastSession(47);
      const release = await holdShare(bookingId);
      // the sweep (its clock past the window's end) waits for the share's lock first, then the dispute
      const sweep = runJobsIn(5);
      await untilWaiting(1);
      const opened = dispute(user.token, bookingId);
      await untilWaiting(2);
      await release();
      await sweep;
      const refused = await opened;
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toContain('The time to dispute this session ended on');
      expect(await hasTransaction(db, `payable:${bookingId}`)).toBe(true);
      expect(await db.select().from(disputes).where(eq(disputes.bookingId, bookingId))).toEqual([]);
    });
  });
});

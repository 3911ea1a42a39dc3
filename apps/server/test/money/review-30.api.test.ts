// Review of issue 30's money commits (refunds made at PayPal, reversals, refused payout batches):
// sequences a genuine PayPal can produce that left the ledger wrong. Each test names its defect.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, payouts, refunds } from '../../src/db/schema';
import { feePart } from '../../src/modules/bookings/outside-refund';
import { account, balance } from '../../src/modules/money';
import { createAccount } from '../helper';
import { auth, bookableTrainer, cancel, capture, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { orderProbes } from './order-probes';

const WEBHOOK_ID = 'WH-SPOTTER-TEST';
const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: WEBHOOK_ID } });
const db = t.database.db;
const HOUR = 60 * 60_000;
const MINUTE = 60_000;
let hourOffset = 60;
const nextSlot = () => hourFromNow(hourOffset++);
const {
  postWebhook,
  netPaid,
  heldAtPaypal,
  statusOf,
  heldOrder,
  completedDelivery,
  givenBackDelivery,
  checkAgainstPaypal,
  paidSession,
} = orderProbes(t, paypal, nextSlot);

describe('a refund made in PayPal’s dashboard while a refund Spotter asked for is not finished', () => {
  // Defect: outside-refund.ts skipped every REFUNDED event of an order with a 'requested' refund
  // ("its own job books it"), though Spotter asks for exactly its row's amount: a refund of
  // another amount is not Spotter's, and its own job never books it. The event was recorded as
  // seen, so PayPal's next delivery changed nothing either: the ledger kept money PayPal gave back.
  it('the cancel finds it, books it and refunds what is left; the webhook after adds nothing', async () => {
    const { user, bookingId, orderId } = await paidSession(200);
    // a partial refund in the dashboard; its webhook is on its way (PayPal delivers within minutes)
    paypal.refundOutside(orderId, '50.00');
    // the user cancels first: PayPal refuses Spotter's $200 (more than is left); Spotter reads
    // PayPal's refunds of the order, books the $50 and asks for the $150 left
    const cancelled = await cancel(t, user.token, bookingId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await statusOf(bookingId)).toBe('refunded');
    expect(
      (await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId)))
        .map((r) => `${r.status} ${r.amountCents}`)
        .sort(),
    ).toEqual(['completed 15000', 'completed 5000']);
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await netPaid(orderId)).toBe(0);

    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    expect(await netPaid(orderId)).toBe(0);
  });

  // Defect: Spotter's own refund row ('full:<payment>', $200) kept its amount, so its job asked
  // PayPal for more than is left, hourly, for ever. Now the job asks for what is left.
  it('a refund whose first call failed asks, when its job runs, only for what is left', async () => {
    const { user, bookingId, orderId } = await paidSession(200);
    // the cancel's refund call fails (PayPal 500): the refund stays requested for its job
    paypal.failNext('refund', 'server-error');
    expect((await cancel(t, user.token, bookingId)).statusCode).toBeGreaterThanOrEqual(500);
    // meanwhile $50 is refunded in the dashboard and its webhook arrives
    paypal.refundOutside(orderId, '50.00');
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    const mailsBefore = t.outbox().length;
    // the refund's job, as it runs a few minutes later
    await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * MINUTE) });
    expect(await statusOf(bookingId)).toBe('refunded');
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await netPaid(orderId)).toBe(0);
    expect(
      (await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId)))
        .map((r) => `${r.status} ${r.amountCents}`)
        .sort(),
    ).toEqual(['completed 15000', 'completed 5000']);
    expect(
      t
        .outbox()
        .slice(mailsBefore)
        .some((m) => m.to === user.email && /cancel/i.test(m.subject)),
    ).toBe(true);
  });
});

describe('a chargeback of a capture that came too late (its money in suspense)', () => {
  // Defect: takenBack() took a reversal of a late capture (stored as a payment with no fee, its
  // money in suspense:<provider>:<order>, its own refund not finished) from the trainer's pending
  // share of other sessions, or from platform:losses, and left the suspense holding the money.
  it('comes out of the suspense account, not the trainer’s other sessions', async () => {
    const trainer = await bookableTrainer(t, { price: 120 });
    // the trainer has another session paid and ahead: its share is in their pending account
    const other = await paidSession(120, nextSlot(), trainer);
    const pendingBefore = await balance(db, account.trainerPending(trainer.id));
    expect(pendingBefore).toBe(other.payment.amountCents - other.payment.feeCents);
    const lossesBefore = await balance(db, account.losses);

    // a capture PayPal made after Spotter's timeout, settled (by its webhook) after the hold ended;
    // Spotter's refund of it finds PayPal down, so the money waits in suspense for the refund's job
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
    paypal.failNext('capture', 'slow');
    expect((await capture(t, me.token, orderId)).statusCode).toBe(504);
    await db.update(bookings).set({ status: 'expired', holdExpiresAt: null }).where(eq(bookings.id, bookingId));
    paypal.failNext('refund', 'server-error');
    expect((await postWebhook(completedDelivery(orderId))).statusCode).toBe(200);
    expect(await balance(db, account.suspense('paypal', orderId))).toBe(12_000);

    // the payer's bank takes it back meanwhile
    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    expect(await netPaid(orderId)).toBe(0);
    expect(await balance(db, account.suspense('paypal', orderId))).toBe(0);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(pendingBefore);
    expect(await balance(db, account.losses)).toBe(lossesBefore);

    // Spotter's own refund of it, retried by its job, finds nothing left to ask PayPal for
    await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * MINUTE) });
    expect((await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId))).map((r) => r.status).sort()).toEqual([
      'completed',
      'failed',
    ]);
    expect(heldAtPaypal(orderId)).toBe(0);
    expect(await balance(db, account.suspense('paypal', orderId))).toBe(0);
  });
});

describe('a chargeback while the trainer’s payout of that share is at PayPal, not settled', () => {
  // Defect (not fixed here): takenBack() reads the payable balance, which a payout in flight has
  // moved to `paying`, so the whole share is booked as Spotter's loss; when that payout then comes
  // back (RETURNED), paying → payable gives the trainer the share again and the next payout pays
  // it: the payer got the money back and the trainer is paid for the same session.
  it('the share that comes back from the payout is not paid to the trainer again', async () => {
    const startsAt = hourFromNow(7);
    const { trainer, orderId, payment } = await paidSession(200, startsAt);
    const email = `inflight.${Date.now()}@example.com`;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/payout',
      headers: auth(trainer.token),
      payload: { email },
    });
    expect(saved.statusCode).toBe(200);
    paypal.payoutItemStatus(email, 'PENDING');
    const endsAt = Date.parse(startsAt) + HOUR;
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR) });
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 11 * MINUTE) });
    const share = payment.amountCents - payment.feeCents;
    const [sent] = await db.select().from(payouts).where(eq(payouts.trainerId, trainer.id));
    expect(sent).toMatchObject({ status: 'sent', amountCents: share });

    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    expect(await netPaid(orderId)).toBe(0);

    // the payout comes back: the reversed share must not become the trainer's to be paid again
    paypal.payoutItemStatus(email, 'RETURNED');
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 22 * MINUTE) });
    const [back] = await db
      .select()
      .from(payouts)
      .where(and(eq(payouts.trainerId, trainer.id), eq(payouts.id, sent.id)));
    expect(back.status).toBe('returned');
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(0);
  });
});

describe('the ledger check after these sequences', () => {
  it('has nothing to say', async () => {
    const diffs = await checkAgainstPaypal();
    expect(diffs).toEqual([]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a refund made at PayPal racing the sweep that makes its share payable', () => {
  // Defect: the sweep reads a due share (payouts.repo dueShares) and the outside refund reads where
  // the share is (payable: or pending) and that balance before either takes the account's lock
  // (ledger.repo post). Both then wrote what they had read: the whole share made payable, and the
  // refunded part taken from pending, that is from the trainer's other sessions, whose own shares
  // can then never become payable (LedgerError, logged, for ever).
  it('the share made payable is what the refund left of it', async () => {
    const startsAt = hourFromNow(9);
    const { trainer, orderId, payment } = await paidSession(200, startsAt);
    // another session of theirs, days ahead: its share stays pending
    const other = await paidSession(200, hourFromNow(24 * 6), trainer);
    const share = payment.amountCents - payment.feeCents;
    const otherShare = other.payment.amountCents - other.payment.feeCents;
    const pending = account.trainerPending(trainer.id);

    // an operator's transaction holds the trainer's pending account (as a concurrent post would)
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'ledger:' + pending + '|USD'}, 0))`);
      locked();
      await released;
    });
    await isLocked;
    const waiters = async () =>
      Number(
        (
          (await db.execute(
            sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
              and database = (select oid from pg_database where datname = current_database())`,
          )) as unknown as {
            rows: Array<{ n: number }>;
          }
        ).rows[0].n,
      );
    const until = async (n: number) => {
      while ((await waiters()) < n) await new Promise((r) => setImmediate(r));
    };

    // the sweep, days after the session ended (after the clocks of the tests above), reads the
    // share and waits for the account
    const endsAt = Date.parse(startsAt) + HOUR;
    const sweep = t.app.jobs.runDue({ now: new Date(endsAt + 4 * 24 * HOUR) });
    await until(1);
    // meanwhile PayPal's webhook of a $50 refund made in its dashboard
    paypal.refundOutside(orderId, '50.00');
    const webhook = postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId));
    await until(2);
    release();
    await holder;
    expect((await webhook).statusCode).toBe(200);
    await sweep;

    expect(await netPaid(orderId)).toBe(15_000);
    const refundedShare = 5_000 - feePart(payment, 0, 5_000);
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(share - refundedShare);
    expect(await balance(db, pending)).toBe(otherShare);
  });
});

describe('a REFUNDED event whose resource is the capture, not a refund', () => {
  // Defect: paypal-webhook.ts took a resource without a refund's `up` link but with
  // supplementary_data as the capture itself for REFUNDED too (meant for a REVERSED capture), and
  // booked its amount, the whole capture's, as refunded: after a $50 refund PayPal holds $150, the
  // ledger said nothing was kept and the session was cancelled.
  it('books nothing more than PayPal gave back', async () => {
    const { bookingId, orderId } = await paidSession(200);
    paypal.refundOutside(orderId, '50.00');
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    const event = { ...paypal.captureEvent('PAYMENT.CAPTURE.COMPLETED', orderId), event_type: 'PAYMENT.CAPTURE.REFUNDED' };
    expect(event.resource).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount: { value: '200.00' } });
    expect((await postWebhook(paypal.webhookDelivery(event, { webhookId: WEBHOOK_ID }))).statusCode).toBe(200);
    expect(heldAtPaypal(orderId)).toBe(15_000);
    expect(await netPaid(orderId)).toBe(15_000);
    expect(await statusOf(bookingId)).toBe('confirmed');
  });
});

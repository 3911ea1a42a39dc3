// A payout through the real PayPal adapter against the local fake of PayPal's Payouts API
// (test/support/fake-paypal.ts), as app.ts wires it: an item PayPal reports UNCLAIMED goes back to
// the trainer's payable balance and the trainer is told by mail (docs/decisions/042-money-ledger.md#payouts).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYOUT_MSG } from '@spotter/shared';
import { paymentEvents, payouts } from '../../src/db/schema';
import { account, balance, hasTransaction } from '../../src/modules/money';
import { createAccount } from '../helper';
import { auth, bookableTrainer, bookAndPay, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { ledgerSums, postPaymentOf } from './money-app';

const { t, paypal } = await usePaypalApp();
const db = t.database.db;
const HOUR = 60 * 60_000;
const MINUTE = 60_000;

const totalsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/payments', headers: auth(token) })).json().totals as { payable: number; paidOut: number };
const payoutsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/payouts', headers: auth(token) })).json().payouts as Array<{
    _id: string;
    status: string;
    amount: number;
  }>;

/** A bookable trainer ($200) whose payouts go to `address`. */
async function trainerPaidTo(address: string) {
  const trainer = await bookableTrainer(t, { price: 200 });
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/trainer/payout',
    headers: auth(trainer.token),
    payload: { email: address },
  });
  expect(saved.statusCode).toBe(200);
  return { trainer, address };
}

describe('a PayPal payout returned UNCLAIMED', () => {
  it('goes back to the payable balance, and the trainer gets a mail', async () => {
    const { trainer, address } = await trainerPaidTo(`nobody.${Date.now()}@example.com`);
    paypal.payoutItemStatus(address, 'UNCLAIMED');
    const user = await createAccount(t, 'user');
    const startsAt = hourFromNow(3);
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, startsAt);
    const { shareCents } = await postPaymentOf(t, bookingId);
    const endsAt = Date.parse(startsAt) + HOUR;

    // the time to dispute the session over: payable, and sent to PayPal in a batch
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 11 * MINUTE) });
    const [sent] = await payoutsOf(trainer.token);
    expect(sent).toMatchObject({ status: 'sent', amount: shareCents / 100 });
    const [row] = await db.select().from(payouts).where(eq(payouts.id, sent._id));
    const atPaypal = paypal.state.ledger.payouts.filter((p) => p.senderItemId === sent._id);
    expect(atPaypal).toHaveLength(1);
    expect(atPaypal[0]).toMatchObject({ senderBatchId: row.batchKey, receiver: address });

    // the next sweep asks PayPal: the item is unclaimed, and Spotter takes it back before anything else
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 22 * MINUTE) });
    expect(paypal.state.requests.filter((r) => r.call === 'cancelItem')).toHaveLength(1);
    // at PayPal it can no longer be claimed: paying the share again cannot pay it twice
    expect(paypal.state.ledger.payouts.filter((p) => p.senderItemId === sent._id).map((p) => p.status)).toEqual(['RETURNED']);
    expect((await payoutsOf(trainer.token)).find((p) => p._id === sent._id)).toMatchObject({ status: 'returned' });
    expect(await totalsOf(trainer.token)).toMatchObject({ payable: shareCents / 100, paidOut: 0 });
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(shareCents);
    expect(await balance(db, account.trainerPaying(trainer.id))).toBe(0);
    expect(await hasTransaction(db, `payout-returned:${sent._id}`)).toBe(true);
    const mails = t.outbox().filter((m) => m.to === trainer.email && m.text.includes(PAYOUT_MSG.returned));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(address);
    for (const sum of Object.values(await ledgerSums(t))) expect(sum).toBe(0);
  });

  it('a payout batch PayPal takes but answers too late is sent again with the same sender_batch_id, and paid once', async () => {
    const { trainer } = await trainerPaidTo(`coach.${Date.now()}@example.com`);
    const user = await createAccount(t, 'user');
    const startsAt = hourFromNow(60);
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, startsAt);
    const { shareCents } = await postPaymentOf(t, bookingId);
    const endsAt = Date.parse(startsAt) + HOUR;

    // PayPal does the work but answers after Spotter stopped waiting
    paypal.failNext('payout', 'slow');
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 11 * MINUTE) });
    const [pending] = await payoutsOf(trainer.token);
    expect(pending).toMatchObject({ status: 'pending', amount: shareCents / 100 });
    expect(await totalsOf(trainer.token)).toMatchObject({ payable: shareCents / 100, paidOut: 0 });
    const [row] = await db.select().from(payouts).where(eq(payouts.id, pending._id));

    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * HOUR + 22 * MINUTE) });
    const sends = paypal.state.requests.filter(
      (r) =>
        r.call === 'payout' &&
        (r.body as { sender_batch_header?: { sender_batch_id?: string } })?.sender_batch_header?.sender_batch_id === row.batchKey,
    );
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(paypal.state.ledger.payouts.filter((p) => p.senderItemId === pending._id)).toHaveLength(1);
    expect((await payoutsOf(trainer.token)).find((p) => p._id === pending._id)).toMatchObject({ status: 'paid' });
    expect(await totalsOf(trainer.token)).toMatchObject({ payable: 0, paidOut: shareCents / 100 });
    expect(await balance(db, account.trainerPaying(trainer.id))).toBe(0);
    for (const sum of Object.values(await ledgerSums(t))) expect(sum).toBe(0);
  });
});

describe('a payout batch PayPal refuses', () => {
  it('goes back to the payable balance, the trainer is told it is late, operators see it, and the next batch pays it', async () => {
    const { trainer, address } = await trainerPaidTo(`late.${Date.now()}@example.com`);
    const user = await createAccount(t, 'user');
    // after the tests above moved the clock: the daily payouts job is due once this session's share is
    const startsAt = hourFromNow(200);
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, startsAt);
    const { shareCents } = await postPaymentOf(t, bookingId);
    const endsAt = Date.parse(startsAt) + HOUR;

    // Spotter's PayPal balance cannot cover the batch: 422 INSUFFICIENT_FUNDS, nothing created at PayPal
    paypal.failNext('payout', 'decline');
    const firstRun = endsAt + 48 * HOUR + 11 * MINUTE;
    await t.app.jobs.runDue({ now: new Date(firstRun) });
    const [refused] = await payoutsOf(trainer.token);
    expect(refused).toMatchObject({ status: 'returned', refused: true, amount: shareCents / 100 });
    expect(paypal.state.ledger.payouts.filter((p) => p.receiver === address)).toHaveLength(0);
    expect(await balance(db, account.trainerPayable(trainer.id))).toBe(shareCents);
    expect(await balance(db, account.trainerPaying(trainer.id))).toBe(0);
    expect(await totalsOf(trainer.token)).toMatchObject({ payable: shareCents / 100, paidOut: 0 });
    // the trainer is told it is late and that nothing is needed of them
    const mails = t.outbox().filter((m) => m.to === trainer.email && m.subject === 'Your payout is delayed');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(PAYOUT_MSG.refused);
    // operators: a payment event and the metric
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.kind, 'payout-refused'));
    expect(events.some((e) => (e.details.payouts as string[]).includes(refused._id))).toBe(true);
    expect(events.at(-1)!.details).toMatchObject({ issue: 'INSUFFICIENT_FUNDS', status: 422 });
    const metrics = await t.app.inject({ url: '/api/metrics' });
    expect(metrics.body).toMatch(/^spotter_payout_batches_refused_total [1-9]/m);

    // the next daily batch pays it (to the same address: a refused batch says nothing about it)
    await t.app.jobs.runDue({ now: new Date(firstRun + 24 * HOUR + MINUTE) });
    await t.app.jobs.runDue({ now: new Date(firstRun + 24 * HOUR + 12 * MINUTE) });
    const list = await payoutsOf(trainer.token);
    expect(list.map((p) => p.status).sort()).toEqual(['paid', 'returned']);
    expect(paypal.state.ledger.payouts.filter((p) => p.receiver === address)).toHaveLength(1);
    expect(await totalsOf(trainer.token)).toMatchObject({ payable: 0, paidOut: shareCents / 100 });
    for (const sum of Object.values(await ledgerSums(t))) expect(sum).toBe(0);
  });
});

import { sql } from 'drizzle-orm';
import { BOOKING_RULES } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { account, hasTransaction, post, type ProviderCapture } from '../money';
import { BOOKING_JOBS, enqueueBookingMails, queueResaleRefunds, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { paymentEntries, refundUnplaced } from './refunds';

const HOUR = 60 * 60_000;

/**
 * pending → confirmed with its mails and jobs, in the capture's transaction: the confirmations (run
 * at once after the commit), the reminders 24 h before and the completion.
 */
async function confirm(ctx: BookingsContext, tx: Tx, row: bookingsRepo.BookingRow, at: Date) {
  if (!(await bookingsRepo.confirmBooking(tx, row.id, at))) return { confirmed: false, mailJobs: [] as number[] };
  await announceBooking(ctx, tx, row);
  const mailJobs = await enqueueBookingMails(ctx, tx, row.id, 'confirmed');
  const remindAt = new Date(row.startsAt.getTime() - BOOKING_RULES.reminderHours * HOUR);
  // a session booked for the next 24 hours gets no reminder: its confirmation is just out
  if (remindAt > at) {
    for (const to of ['user', 'trainer'] as const) {
      await ctx.jobs.enqueue(tx, {
        kind: BOOKING_JOBS.mail,
        runAt: remindAt,
        payload: { bookingId: row.id, kind: 'reminder', to, startsAt: row.startsAt.toISOString() },
      });
    }
  }
  await ctx.jobs.enqueue(tx, { kind: BOOKING_JOBS.complete, runAt: row.endsAt, payload: { bookingId: row.id } });
  // a session released for resale at this time is refunded now that somebody booked it
  mailJobs.push(...(await queueResaleRefunds(ctx, tx, { trainerId: row.trainerId, startsAt: row.startsAt, bookingId: row.id })));
  return { confirmed: true, mailJobs };
}

/** A capture recorded before: paid when its booking went on to be paid, late otherwise. */
async function settledBefore(ctx: BookingsContext, bookingId: string): Promise<Settlement> {
  const fresh = await bookingsRepo.findBooking(ctx.db, bookingId);
  return fresh && ['confirmed', 'completed', 'refunded', 'no-show'].includes(fresh.status)
    ? { outcome: 'paid' }
    : { outcome: 'late' };
}

type Settlement =
  /** the booking is confirmed and paid (now, or by an earlier call) */
  | { outcome: 'paid' }
  /** captured with another amount or currency than the booking's: refunded in full, not booked */
  | { outcome: 'mismatch'; amountCents?: number; currency?: string }
  /** captured after the booking stopped being payable (its hold ended, it was cancelled): refunded in full */
  | { outcome: 'late' };

/**
 * A capture the provider completed, from any path (the capture call, the reconciliation job, a
 * webhook), recorded once (docs/decisions/042-money-ledger.md#captures). Accepted only for the
 * booking's own amount and currency and while the booking is payable: then the booking is confirmed,
 * the payment stored and the ledger's `payment` transaction written, in one transaction. Otherwise
 * the money goes to the order's suspense account and is refunded in full at once, the booking is
 * not confirmed, and the event is recorded.
 */
export async function settleCapture(
  ctx: BookingsContext,
  row: bookingsRepo.BookingRow,
  { orderId, result, via }: { orderId: string; result: ProviderCapture; via: 'capture' | 'check' | 'webhook' },
): Promise<Settlement> {
  const p = providerOf(ctx, row.provider);
  const capture = result.capture!;
  const captureKey = `capture:${p.name}:${capture.id}`;
  // settled before, by another path: the same answer
  if (await paymentsRepo.findPaymentByOrder(ctx.db, p.name, orderId)) return settledBefore(ctx, row.id);
  const currency = capture.currency ?? row.currency;
  // PayPal always states the amount; only the demo provider (no money moves) leaves it out
  const amountCents = capture.amountCents ?? (p.name === 'demo' ? row.priceCents : undefined);
  const at = ctx.now();

  if (amountCents === undefined || amountCents !== row.priceCents || currency !== row.currency) {
    ctx.log.error(
      { orderId, captured: capture.amountCents, currency, expected: row.priceCents },
      'captured amount differs from the order: refunding it',
    );
    const unplaced = amountCents ?? 0;
    await ctx.db.transaction(async (tx) => {
      const first =
        unplaced <= 0 ||
        (await post(tx, {
          key: captureKey,
          kind: 'unplaced',
          bookingId: row.id,
          userId: row.userId,
          trainerId: row.trainerId,
          provider: p.name,
          providerOrderId: orderId,
          memo: 'captured amount or currency differs from the booking',
          at,
          entries: [
            { account: account.world(p.name), amountCents: -unplaced, currency },
            { account: account.suspense(p.name, orderId), amountCents: unplaced, currency },
          ],
        }));
      if (!first) return; // recorded by a concurrent call
      await paymentsRepo.recordPaymentEvent(tx, {
        kind: 'capture-mismatch',
        bookingId: row.id,
        provider: p.name,
        providerOrderId: orderId,
        details: {
          via,
          captureId: capture.id,
          captured: capture.amountCents ?? null,
          currency,
          expected: row.priceCents,
          expectedCurrency: row.currency,
        },
        at,
      });
      // the hold ends at once: the slot is free again and the user may hold it again without waiting
      if (await bookingsRepo.changeStatus(tx, row.id, 'pending', 'expired', at)) await announceBooking(ctx, tx, row);
    });
    if (unplaced > 0)
      await refundUnplaced(
        ctx,
        { provider: p.name, orderId, captureId: capture.id, amountCents: unplaced, currency, bookingId: row.id },
        'captured amount or currency differs from the booking',
      ).catch((err) => ctx.log.error({ err, orderId }, 'refund of a mismatched capture failed; its job retries'));
    return { outcome: 'mismatch', amountCents: capture.amountCents, currency };
  }

  const outcome = await ctx.db.transaction(async (tx) => {
    // one settlement of a capture at a time: a concurrent one waits here, then finds it recorded
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${captureKey}, 0))`);
    if (await hasTransaction(tx, captureKey)) return { confirmed: false, mailJobs: [] as number[], again: true };
    const { confirmed, mailJobs } = await confirm(ctx, tx, row, at);
    const { entries, feeCents } = paymentEntries({ provider: p.name, trainerId: row.trainerId, amountCents, currency });
    await paymentsRepo.insertPayment(tx, {
      bookingId: row.id,
      userId: row.userId,
      trainerId: row.trainerId,
      provider: p.name,
      providerOrderId: orderId,
      captureId: capture.id,
      amountCents,
      feeCents: confirmed ? feeCents : 0,
      currency,
      status: 'completed',
      raw: result.raw as object,
      createdAt: at,
    });
    await post(tx, {
      key: captureKey,
      kind: confirmed ? 'payment' : 'unplaced',
      bookingId: row.id,
      userId: row.userId,
      trainerId: row.trainerId,
      provider: p.name,
      providerOrderId: orderId,
      memo: confirmed ? '' : 'captured after the booking stopped being payable',
      at,
      entries: confirmed
        ? entries
        : [
            { account: account.world(p.name), amountCents: -amountCents, currency },
            { account: account.suspense(p.name, orderId), amountCents, currency },
          ],
    });
    if (!confirmed)
      await paymentsRepo.recordPaymentEvent(tx, {
        kind: 'late-capture-refunded',
        bookingId: row.id,
        provider: p.name,
        providerOrderId: orderId,
        details: { via, captureId: capture.id, amountCents, currency },
        at,
      });
    if (via !== 'capture')
      await paymentsRepo.recordPaymentEvent(tx, {
        kind: 'capture-settled',
        bookingId: row.id,
        provider: p.name,
        providerOrderId: orderId,
        details: { via, outcome: confirmed ? 'paid' : 'late' },
        at,
      });
    // both people are told: the user that the money came back, the trainer that the time is not booked
    const lateMails = confirmed ? [] : await enqueueBookingMails(ctx, tx, row.id, 'cancelled', { refunded: true });
    return { confirmed, mailJobs: [...mailJobs, ...lateMails], again: false };
  });
  if (outcome.again) return settledBefore(ctx, row.id);
  await runBookingMails(ctx, outcome.mailJobs);
  if (outcome.confirmed) return { outcome: 'paid' };
  await refundUnplaced(
    ctx,
    { provider: p.name, orderId, captureId: capture.id, amountCents, currency, bookingId: row.id },
    'captured after the booking stopped being payable',
  ).catch((err) => ctx.log.error({ err, orderId }, 'refund of a late capture failed; its job retries'));
  return { outcome: 'late' };
}

import {
  BOOKING_MSG,
  BOOKING_RULES,
  PAYMENT_MSG,
  PLATFORM_FEE_PERCENT,
  type TBooking,
  type TCaptureResponse,
} from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString, percentOf } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { BOOKING_JOBS, enqueueBookingMails, runBookingMails } from './booking-jobs';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, requireUser, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { refundBooking } from './refund-booking';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A capture in progress keeps its hold this long, past any provider timeout. */
const CAPTURE_HOLD_MS = 5 * MINUTE;

/** The answer the spec reads (purchase_units[0].payments.captures[0]), for a stored payment. */
function captureAnswer(
  orderId: string,
  payment: { captureId: string; amountCents: number; currency: string },
  booking: TBooking,
): TCaptureResponse {
  return {
    id: orderId,
    status: 'COMPLETED',
    purchase_units: [
      {
        reference_id: booking._id,
        payments: {
          captures: [
            {
              id: payment.captureId,
              status: 'COMPLETED',
              amount: { currency_code: payment.currency, value: centsToDecimalString(payment.amountCents) },
            },
          ],
        },
      },
    ],
    booking,
  };
}

/**
 * pending → confirmed with its mails and jobs, in the capture's transaction: the confirmations (run
 * at once after the commit), the reminders 24 h before and the completion.
 */
async function confirm(ctx: BookingsContext, tx: Tx, row: bookingsRepo.BookingRow, at: Date) {
  if (!(await bookingsRepo.confirmBooking(tx, row.id, at))) return { confirmed: false, mailJobs: [] };
  await announceBooking(ctx, tx, row);
  const mailJobs = await enqueueBookingMails(ctx, tx, row.id, 'confirmed');
  const remindAt = new Date(row.startsAt.getTime() - BOOKING_RULES.reminderHours * HOUR);
  // a session booked for the next 24 hours gets no reminder: its confirmation is just out
  if (remindAt > at) {
    for (const to of ['user', 'trainer'] as const) {
      await ctx.jobs.enqueue(tx, {
        kind: BOOKING_JOBS.mail,
        runAt: remindAt,
        payload: { bookingId: row.id, kind: 'reminder', to },
      });
    }
  }
  await ctx.jobs.enqueue(tx, { kind: BOOKING_JOBS.complete, runAt: row.endsAt, payload: { bookingId: row.id } });
  return { confirmed: true, mailJobs };
}

/**
 * Captures the caller's order (docs/product.md#booking-and-payment). On COMPLETED the booking is
 * confirmed and the payment stored in one transaction, owned here; a second capture answers the
 * stored result and charges nothing.
 */
export async function captureOrder(
  ctx: BookingsContext,
  { caller, orderId }: { caller: Caller | undefined; orderId: string },
): Promise<TCaptureResponse> {
  const { db, log } = ctx;
  const user = requireUser(caller);
  const row = await bookingsRepo.findBookingByOrder(db, orderId);
  if (!row) throw new AppError('NOT_FOUND', PAYMENT_MSG.orderNotFound);
  if (row.userId !== user.id) throw new AppError('FORBIDDEN', PAYMENT_MSG.orderNotFound);
  const p = providerOf(ctx, row.provider);
  const bookingNow = async () => toBooking((await bookingsRepo.findBooking(db, row.id))!, ctx.now(), 'user');

  /** The stored result of an earlier (or a concurrent, just committed) capture of this order. */
  const storedAnswer = async () => {
    const stored = await paymentsRepo.findPaymentByOrder(db, p.name, orderId);
    const fresh = stored && (await bookingsRepo.findBooking(db, row.id));
    return stored && fresh ? captureAnswer(orderId, stored, toBooking(fresh, ctx.now(), 'user')) : undefined;
  };
  const earlier = await storedAnswer();
  if (earlier) return earlier;
  // the hold must be alive, and stays so for the capture: the job cannot expire it meanwhile
  if (
    row.status !== 'pending' ||
    !(await bookingsRepo.extendLiveHold(db, row.id, new Date(ctx.now().getTime() + CAPTURE_HOLD_MS), ctx.now()))
  ) {
    const concurrent = await storedAnswer();
    if (concurrent) return concurrent;
    throw row.status === 'confirmed'
      ? new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid)
      : new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
  }

  const result = await p.captureOrder({ orderId, requestId: `spotter-capture-${orderId}` });
  const capture = result.capture;
  if (result.status !== 'COMPLETED' || !capture || capture.status !== 'COMPLETED') {
    // e.g. PENDING (an eCheck) or DECLINED: nothing is paid yet, the booking stays as it is
    log.warn({ orderId, status: result.status, captureStatus: capture?.status }, 'capture did not complete');
    return {
      id: result.orderId,
      status: result.status,
      purchase_units: [
        { reference_id: row.id, payments: { captures: capture ? [{ id: capture.id, status: capture.status }] : [] } },
      ],
      booking: toBooking(row, ctx.now(), 'user'),
    };
  }
  if (capture.amountCents !== undefined && capture.amountCents !== row.priceCents) {
    log.error({ orderId, captured: capture.amountCents, expected: row.priceCents }, 'captured amount differs from the order');
  }
  const amountCents = capture.amountCents ?? row.priceCents;
  const at = ctx.now();

  // the money has moved: the booking's confirmation and the payment are one write
  const outcome = await db.transaction(async (tx) => {
    const { confirmed, mailJobs } = await confirm(ctx, tx, row, ctx.now());
    await paymentsRepo.insertPayment(tx, {
      bookingId: row.id,
      userId: row.userId,
      trainerId: row.trainerId,
      provider: p.name,
      providerOrderId: orderId,
      captureId: capture.id,
      amountCents,
      feeCents: confirmed ? percentOf(amountCents, PLATFORM_FEE_PERCENT) : 0,
      currency: capture.currency ?? row.currency,
      status: 'completed',
      raw: result.raw as object,
      createdAt: at,
    });
    return { confirmed, mailJobs };
  });

  if (!outcome.confirmed) {
    const again = await paymentsRepo.findPaymentByOrder(db, p.name, orderId);
    const fresh = await bookingsRepo.findBooking(db, row.id);
    // a concurrent capture of the same order confirmed it: answer what it stored
    if (again && fresh && ['confirmed', 'completed', 'refunded'].includes(fresh.status))
      return captureAnswer(orderId, again, toBooking(fresh, ctx.now(), 'user'));
    // the booking was cancelled while the money moved: give it back at once
    if (again && again.status === 'completed')
      await refundBooking(ctx, { payment: again, reason: 'the booking was cancelled during its capture' });
    throw new AppError('BOOKING_CLOSED', BOOKING_MSG.notPayable);
  }
  await runBookingMails(ctx, outcome.mailJobs);
  return captureAnswer(
    orderId,
    { captureId: capture.id, amountCents, currency: capture.currency ?? row.currency },
    await bookingNow(),
  );
}

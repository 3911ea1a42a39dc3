import { BOOKING_MSG, PAYMENT_MSG, type TBooking, type TCaptureResponse } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString } from '../../lib/money';
import { ProviderUnavailableError } from '../money';
import type { Caller } from '../../plugins/auth';
import { BOOKING_JOBS } from './booking-jobs';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { providerOf, requireUser, type BookingsContext } from './context';
import { checkProviderOrder, recordUnknownCapture } from './payment-jobs';
import * as paymentsRepo from './payments.repo';
import { settleCapture } from './settle-order';
import { capturePackageOrder, checkPackageOrder } from './packages';
import * as packagesRepo from './packages.repo';
import { captureSeriesOrder, checkSeriesOrder } from './weekly-series';

const MINUTE = 60_000;
/** A capture in progress keeps its hold this long, past any provider timeout. */
const CAPTURE_HOLD_MS = 5 * MINUTE;
/** An order's hold never outlives its booking by more than this (create-order.ts). */
const HOLD_CAP_MS = 30 * MINUTE;

/** The answer the spec reads (purchase_units[0].payments.captures[0]), for a stored payment, as it is now. */
function captureAnswer(
  orderId: string,
  payment: { captureId: string; amountCents: number; currency: string; status: 'completed' | 'refunded' },
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
              // PayPal's own status of a capture refunded in full
              status: payment.status === 'refunded' ? 'REFUNDED' : 'COMPLETED',
              amount: { currency_code: payment.currency, value: centsToDecimalString(payment.amountCents) },
            },
          ],
        },
      },
    ],
    booking,
  };
}

/** Records that a session's capture's outcome is not known; the check job asks the provider again later. */
const recordUnknown = (ctx: BookingsContext, row: bookingsRepo.BookingRow, orderId: string, why: string) =>
  recordUnknownCapture(ctx, { provider: providerOf(ctx, row.provider).name, orderId, bookingId: row.id, why });

/**
 * Captures the caller's order (docs/product.md#booking-and-payment). A completed capture is
 * settled by `settleCapture` (its amount and currency checked, the booking confirmed, the payment
 * and its ledger transaction stored together); a second capture answers the stored result as it is
 * now and charges nothing; an outcome not known is recorded and reconciled by a job.
 */
export async function captureOrder(
  ctx: BookingsContext,
  { caller, orderId }: { caller: Caller | undefined; orderId: string },
): Promise<TCaptureResponse> {
  const { db, log } = ctx;
  const user = requireUser(caller);
  const row = await bookingsRepo.findBookingByOrder(db, orderId);
  if (!row) {
    // no booking has it: a package's order (docs/product.md#packages), a weekly series' one, or none
    const purchase = await packagesRepo.findBalanceByOrder(db, orderId);
    if (purchase?.kind === 'series') return captureSeriesOrder(ctx, { user, row: purchase, orderId });
    if (purchase) return capturePackageOrder(ctx, { user, row: purchase, orderId });
    throw new AppError('NOT_FOUND', PAYMENT_MSG.orderNotFound);
  }
  if (row.userId !== user.id) throw new AppError('FORBIDDEN', PAYMENT_MSG.orderNotFound);
  const p = providerOf(ctx, row.provider);

  /** The stored result of an earlier (or a concurrent, just committed) capture of this order. */
  const storedAnswer = async () => {
    const stored = await paymentsRepo.findPaymentByOrder(db, p.name, orderId);
    const fresh = stored && (await bookingsRepo.findBooking(db, row.id));
    if (!stored || !fresh) return undefined;
    // money that came after the booking stopped being payable was refunded: say so
    if (stored.feeCents === 0 && !['confirmed', 'completed', 'refunded', 'no-show'].includes(fresh.status))
      throw new AppError('BOOKING_CLOSED', PAYMENT_MSG.lateCaptureRefunded);
    return captureAnswer(orderId, stored, toBooking(fresh, ctx.now(), 'user'));
  };
  const earlier = await storedAnswer();
  if (earlier) return earlier;
  // the hold must be alive, and stays so for the capture: the job cannot expire it meanwhile; captures
  // the provider refuses never keep it past the order's cap (create-order.ts) and one capture's time
  const holdUntil = new Date(
    Math.min(ctx.now().getTime() + CAPTURE_HOLD_MS, row.createdAt.getTime() + HOLD_CAP_MS + CAPTURE_HOLD_MS),
  );
  if (row.status !== 'pending' || !(await bookingsRepo.extendLiveHold(db, row.id, holdUntil, ctx.now()))) {
    const concurrent = await storedAnswer();
    if (concurrent) return concurrent;
    // this order's capture was of another amount or currency, and refunded: say so again
    if (await paymentsRepo.hasPaymentEvent(db, p.name, orderId, 'capture-mismatch'))
      throw new AppError('PAYMENT_MISMATCH', PAYMENT_MSG.amountMismatch);
    throw row.status === 'confirmed'
      ? new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid)
      : new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
  }

  // its expiry moves with it (the earlier expiry job finds it extended and leaves it)
  await ctx.jobs.enqueue(db, { kind: BOOKING_JOBS.expireHold, runAt: holdUntil, payload: { bookingId: row.id } });

  let result;
  try {
    result = await p.captureOrder({ orderId, requestId: `spotter-capture-${orderId}` });
  } catch (err) {
    // the money may have moved: never 'nothing happened' (the answer says we are checking)
    if (err instanceof ProviderUnavailableError) await recordUnknown(ctx, row, orderId, err.reason);
    throw err;
  }
  const capture = result.capture;
  if (result.status !== 'COMPLETED' || !capture || capture.status !== 'COMPLETED') {
    // PENDING (an eCheck, a review) is not known yet; DECLINED and the like: nothing is paid
    if (capture?.status === 'PENDING' || result.status === 'PENDING') await recordUnknown(ctx, row, orderId, 'PENDING');
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

  const settled = await settleCapture(ctx, row, { orderId, result, via: 'capture' });
  if (settled.outcome === 'mismatch') throw new AppError('PAYMENT_MISMATCH', PAYMENT_MSG.amountMismatch);
  if (settled.outcome === 'late') throw new AppError('BOOKING_CLOSED', PAYMENT_MSG.lateCaptureRefunded);
  const answer = await storedAnswer();
  if (!answer) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.notPayable);
  return answer;
}

/**
 * The job for an order whose capture's outcome was not known: asks the provider (GET the order)
 * and settles what it says; still PENDING throws, so the job runner asks again later.
 */
export async function checkOrder(ctx: BookingsContext, { provider, orderId }: { provider: 'paypal' | 'demo'; orderId: string }) {
  const row = await bookingsRepo.findBookingByOrder(ctx.db, orderId);
  if (!row) {
    const purchase = await packagesRepo.findBalanceByOrder(ctx.db, orderId);
    if (purchase?.kind === 'series') await checkSeriesOrder(ctx, purchase, { provider, orderId });
    else if (purchase) await checkPackageOrder(ctx, purchase, { provider, orderId });
    return;
  }
  if (await paymentsRepo.findPaymentByOrder(ctx.db, provider, orderId)) return; // settled meanwhile
  await checkProviderOrder(ctx, { provider, orderId, bookingId: row.id }, (result) =>
    settleCapture(ctx, row, { orderId, via: 'check', result }),
  );
}

import { BOOKING_MSG, BOOKING_RULES, isId, SERVER_MSG, type TOrderResponse } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { BOOKING_JOBS } from './booking-jobs';
import { plainName } from './booking-mails';
import * as repo from './bookings.repo';
import { requireUser, type BookingsContext } from './context';

const MINUTE = 60_000;
/** An order restarts the hold for this long, but a hold never outlives its booking by more than HOLD_CAP_MS. */
const HOLD_CAP_MS = 30 * MINUTE;

/**
 * An order for the caller's own held booking, for the price frozen when the slot was held; one per
 * booking (docs/decisions/042-money-ledger.md#captures). Nothing the browser sends about amounts or
 * products is used (docs/product.md#booking-and-payment).
 */
export async function createOrder(
  ctx: BookingsContext,
  { caller, bookingId }: { caller: Caller | undefined; bookingId: string },
): Promise<TOrderResponse> {
  const { db, provider } = ctx;
  const user = requireUser(caller);
  // an id from a body, where anything that is not an id names nothing
  const row = isId(bookingId) ? await repo.findBooking(db, bookingId) : undefined;
  if (!row) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  if (row.userId !== user.id) throw new AppError('FORBIDDEN', BOOKING_MSG.notFound);
  if (row.status === 'confirmed' || row.status === 'completed') throw new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid);
  // the held weeks of a weekly series are paid together (weekly-series.ts)
  if (row.seriesId && row.status === 'pending') throw new AppError('CONFLICT', BOOKING_MSG.seriesPaidTogether);
  const at = ctx.now();
  if (row.status !== 'pending' || !row.holdExpiresAt || row.holdExpiresAt <= at)
    throw new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
  const trainer = await ctx.availability.findBookableTrainer(row.trainerId);
  if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  // the price when the slot was held: a later change of the trainer's price changes nothing here
  const amountCents = row.priceCents;
  const holdUntil = new Date(Math.min(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE, row.createdAt.getTime() + HOLD_CAP_MS));
  const amount = { currency_code: row.currency, value: centsToDecimalString(amountCents) };

  // one live order per booking: asking again answers the same order, so two checkouts cannot charge twice
  if (row.providerOrderId && row.provider) {
    if (!(await repo.extendLiveHold(db, row.id, holdUntil, at))) throw new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
    if (holdUntil > row.holdExpiresAt)
      await ctx.jobs.enqueue(db, { kind: BOOKING_JOBS.expireHold, runAt: holdUntil, payload: { bookingId: row.id } });
    return { id: row.providerOrderId, status: 'CREATED', amount };
  }

  const order = await provider.createOrder({
    // the same booking at the same price is the same order, however often the browser asks
    requestId: `spotter-order-${row.id}-${amountCents}`,
    amountCents,
    currency: row.currency,
    description: `Spotter: one-hour session with ${plainName(`${row.trainerFirstName} ${row.trainerLastName}`)}`,
    referenceId: row.id,
  });
  const attached = await repo.attachOrder(db, row.id, {
    userId: user.id,
    provider: provider.name,
    providerOrderId: order.id,
    holdExpiresAt: holdUntil,
    now: at,
  });
  if (!attached) throw new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
  // a new expiry when the order moved the hold's end later
  if (holdUntil > row.holdExpiresAt)
    await ctx.jobs.enqueue(db, { kind: BOOKING_JOBS.expireHold, runAt: holdUntil, payload: { bookingId: row.id } });
  return { id: order.id, status: order.status, amount };
}

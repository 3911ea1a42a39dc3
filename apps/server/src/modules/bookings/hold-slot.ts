import type { z } from 'zod';
import { BOOKING_MSG, BOOKING_RULES, SERVER_MSG, type TBooking, type ZCreateBookingRequest } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { BOOKING_JOBS } from './booking-jobs';
import { toBooking } from './booking-view';
import * as repo from './bookings.repo';
import { requireUser, type BookingsContext } from './context';

const MINUTE = 60_000;
const HOLD_COOLDOWN_MS = BOOKING_RULES.holdCooldownMinutes * MINUTE;

/** 409 HOLD_COOLDOWN: the user's own hold on the slot ended too recently; the route sends `Retry-After`. */
export class HoldCooldown extends AppError {
  readonly retryAfterSeconds: number;
  constructor(waitMs: number) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    super('HOLD_COOLDOWN', BOOKING_MSG.holdCooldown(Math.ceil(seconds / 60)));
    this.retryAfterSeconds = seconds;
  }
}

/** A user holds a free slot for BOOKING_RULES.holdMinutes while paying for it. */
export async function holdSlot(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller | undefined; input: z.output<typeof ZCreateBookingRequest> },
): Promise<TBooking> {
  const { db, availability, jobs } = ctx;
  const user = requireUser(caller);
  if (!(await repo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const trainer = await availability.findBookableTrainer(input.trainerId);
  if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const priceCents = trainer.priceCents;
  const at = ctx.now();
  const startsAt = new Date(input.startsAt);
  // not offered (outside the hours, an override's day off, inside the minimum notice): the dialog's slots only
  const rule = await availability.slotRule(trainer.id, startsAt, at);
  const notASlot = () => new AppError('VALIDATION_FAILED', BOOKING_MSG.notASlot, { startsAt: BOOKING_MSG.notASlot });
  if (!rule.scheduled) throw notASlot();
  const endsAt = new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE);
  const holdExpiresAt = new Date(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE);
  const id = await db.transaction(async (tx) => {
    await repo.lockAccount(tx, user.id);
    if ((await repo.countLiveHolds(tx, user.id, at)) >= BOOKING_RULES.maxPendingHolds)
      throw new AppError('TOO_MANY_HOLDS', BOOKING_MSG.tooManyHolds);
    // the user's own hold on this slot ended a moment ago: not again yet (the account lock above
    // also serialises `releaseHold`, so a release racing this hold is seen or sees this hold)
    const endedAt = await repo.lastHoldEndedAt(tx, {
      userId: user.id,
      trainerId: trainer.id,
      startsAt,
      since: new Date(at.getTime() - HOLD_COOLDOWN_MS),
      now: at,
    });
    if (endedAt) throw new HoldCooldown(endedAt.getTime() + HOLD_COOLDOWN_MS - at.getTime());
    await repo.expireLapsedHoldAt(tx, trainer.id, startsAt, at);
    if (rule.bufferMinutes > 0) {
      // holds of neighbouring slots by others wait for each other here, so two cannot both pass the buffer
      await repo.lockAccount(tx, trainer.id);
      const near = await repo.hasLiveSessionNear(tx, {
        trainerId: trainer.id,
        from: new Date(startsAt.getTime() - rule.bufferMinutes * MINUTE),
        until: new Date(endsAt.getTime() + rule.bufferMinutes * MINUTE),
        except: startsAt,
        now: at,
      });
      if (near) throw notASlot();
    }
    const bookingId = await repo.insertHold(tx, {
      trainerId: trainer.id,
      userId: user.id,
      startsAt,
      endsAt,
      priceCents,
      location: rule.location,
      holdExpiresAt,
      now: at,
    });
    if (!bookingId) throw new AppError('SLOT_TAKEN', BOOKING_MSG.slotTaken);
    await jobs.enqueue(tx, { kind: BOOKING_JOBS.expireHold, runAt: holdExpiresAt, payload: { bookingId } });
    return bookingId;
  });
  return toBooking((await repo.findBooking(db, id))!, at, 'user');
}

import { BOOKING_MSG, BOOKING_RULES, formatDateTimeIn, sessionPolicy, zoneLabel, type TBooking } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { BOOKING_JOBS, enqueueBookingMails, queueResaleRefunds, runBookingMails } from './booking-jobs';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A unique violation of the one-live-booking-per-slot index: somebody holds or booked that time. */
function isSlotTaken(err: unknown): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

/**
 * Its user moves a paid session more than 24 hours ahead (its frozen policy's `cancelHours`,
 * docs/decisions/052-frozen-session-policy.md) to another free slot of the same trainer
 * (docs/product.md#moving-a-session); it keeps that policy at its new time. No money moves. One UPDATE changes the session's time, so its
 * old slot is free only once the new one is its own, and two people racing for the new slot (a move
 * and a hold, or two moves) get one winner from the unique index. The reminders and the completion
 * follow the new time; both people get a mail whose `.ics` updates the same calendar event (same
 * UID, higher SEQUENCE), and both sides' open pages are told.
 */
export async function rescheduleBooking(
  ctx: BookingsContext,
  { caller, bookingId, startsAt: newStart }: { caller: Caller; bookingId: string; startsAt: string },
): Promise<{ message: string; booking: TBooking }> {
  const { db, availability, jobs } = ctx;
  // a trainer may cancel a session (with a full refund), not move it: the client chooses their time
  if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', BOOKING_MSG.onlyClientMoves);
  const row = await bookingsRepo.findBooking(db, bookingId);
  if (!row || row.userId !== caller.id) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  const at = ctx.now();
  const view = toBooking(row, at, 'user');
  if (view.status === 'pending') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.rescheduleNotPaid);
  if (view.status !== 'confirmed') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  if (!view.canReschedule)
    throw new AppError('RESCHEDULE_TOO_LATE', BOOKING_MSG.rescheduleTooLateFor(sessionPolicy(row.policy).cancelHours));

  const startsAt = new Date(newStart);
  const field = (message: string) => new AppError('VALIDATION_FAILED', message, { startsAt: message });
  if (startsAt.getTime() === row.startsAt.getTime()) throw field(BOOKING_MSG.rescheduleSameTime);
  // one of the slots the trainer's hours offer now (weekly hours, overrides, the minimum notice)
  const trainer = await availability.findBookableTrainer(row.trainerId);
  if (!trainer) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  const rule = await availability.slotRule(row.trainerId, startsAt, at);
  if (!rule.scheduled) throw field(BOOKING_MSG.notASlot);
  // a cancellation whose refund is under way: the session is ending
  if (row.providerOrderId && row.provider) {
    const refunds = await paymentsRepo.refundsOfOrder(db, row.provider as 'paypal' | 'demo', row.providerOrderId);
    if (refunds.some((r) => r.status === 'requested')) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.rescheduleInProgress);
  }

  const endsAt = new Date(startsAt.getTime() + (row.endsAt.getTime() - row.startsAt.getTime()));
  let mailJobs: number[];
  try {
    mailJobs = await db.transaction(async (tx) => {
      // a hold on the new slot that ran out no longer blocks it
      await bookingsRepo.expireLapsedHoldAt(tx, row.trainerId, startsAt, at);
      if (rule.bufferMinutes > 0) {
        // as a hold does: holds and moves of neighbouring slots wait for each other on the trainer
        await bookingsRepo.lockAccount(tx, row.trainerId);
        const near = await bookingsRepo.hasLiveSessionNear(tx, {
          trainerId: row.trainerId,
          from: new Date(startsAt.getTime() - rule.bufferMinutes * MINUTE),
          until: new Date(endsAt.getTime() + rule.bufferMinutes * MINUTE),
          except: startsAt,
          exceptBooking: row.id,
          now: at,
        });
        if (near) throw field(BOOKING_MSG.notASlot);
      }
      const moved = await bookingsRepo.moveBooking(tx, row.id, { from: row.startsAt, startsAt, endsAt, now: at });
      // cancelled, refunded or moved by another request meanwhile
      if (!moved) throw new AppError('CONFLICT', BOOKING_MSG.alreadyOver);
      await announceBooking(ctx, tx, row);
      // the reminders of the old time see the new one and stay quiet (bookings.service.ts)
      const remindAt = new Date(startsAt.getTime() - BOOKING_RULES.reminderHours * HOUR);
      if (remindAt > at) {
        for (const to of ['user', 'trainer'] as const) {
          await jobs.enqueue(tx, {
            kind: BOOKING_JOBS.mail,
            runAt: remindAt,
            payload: { bookingId: row.id, kind: 'reminder', to, startsAt: startsAt.toISOString() },
          });
        }
      }
      // the old time's completion finds the session not over yet and leaves it
      await jobs.enqueue(tx, { kind: BOOKING_JOBS.complete, runAt: endsAt, payload: { bookingId: row.id } });
      const mails = await enqueueBookingMails(ctx, tx, row.id, 'moved', { from: row.startsAt.toISOString() });
      // a session released for resale at the new time: somebody took it, so it is refunded
      mails.push(...(await queueResaleRefunds(ctx, tx, { trainerId: row.trainerId, startsAt, bookingId: row.id })));
      return mails;
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isSlotTaken(err)) throw new AppError('SLOT_TAKEN', BOOKING_MSG.slotTaken);
    throw err;
  }
  await runBookingMails(ctx, mailJobs);
  const fresh = (await bookingsRepo.findBooking(db, row.id))!;
  const when = `${formatDateTimeIn(startsAt, rule.timeZone)} (${zoneLabel(rule.timeZone, startsAt)})`;
  return { message: BOOKING_MSG.moved(when), booking: toBooking(fresh, ctx.now(), 'user') };
}

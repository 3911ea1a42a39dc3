import { BOOKING_RULES, WAITLIST_RULES } from '@spotter/shared';
import { BOOKING_JOBS, RUN_NOW_CLAIM_MS, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, type BookingsContext } from './context';
import * as repo from './waitlist.repo';

const MINUTE = 60_000;

/**
 * A freed slot of a trainer goes to the first in line on their waitlist (docs/product.md#waitlist):
 * held for them for 30 minutes as a pending booking they pay for like any hold, mailed and pushed
 * to their open pages. When that hold ends unpaid, the database frees the slot again and this runs
 * for the next in line. Nothing happens when the time is no longer one the trainer offers (past,
 * inside the notice, outside the hours), is taken again, or nobody waits for it.
 */
export async function offerFreedSlot(
  ctx: BookingsContext,
  { trainerId, startsAt: iso }: { trainerId: string; startsAt: string },
  at: Date = ctx.now(),
) {
  const { db, availability, jobs } = ctx;
  const startsAt = new Date(iso);
  if (Number.isNaN(startsAt.getTime())) return;
  const trainer = await availability.findBookableTrainer(trainerId);
  if (!trainer || trainer.priceCents === null) return;
  const priceCents = trainer.priceCents;
  const rule = await availability.slotRule(trainerId, startsAt, at);
  if (!rule.scheduled) return;
  const endsAt = new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE);
  const holdExpiresAt = new Date(at.getTime() + WAITLIST_RULES.offerMinutes * MINUTE);
  const mailJobs = await db.transaction(async (tx) => {
    // the offers of one trainer's slots one at a time, and after any hold near it (hold-slot.ts)
    await bookingsRepo.lockAccount(tx, trainerId);
    await bookingsRepo.expireLapsedHoldAt(tx, trainerId, startsAt, at);
    if (rule.bufferMinutes > 0) {
      const near = await bookingsRepo.hasLiveSessionNear(tx, {
        trainerId,
        from: new Date(startsAt.getTime() - rule.bufferMinutes * MINUTE),
        until: new Date(endsAt.getTime() + rule.bufferMinutes * MINUTE),
        except: startsAt,
        now: at,
      });
      if (near) return [];
    }
    const next = await repo.nextInLine(tx, { trainerId, startsAt, endsAt, at });
    if (!next) return [];
    const bookingId = await bookingsRepo.insertHold(tx, {
      trainerId,
      userId: next.userId,
      startsAt,
      endsAt,
      priceCents,
      location: rule.location,
      holdExpiresAt,
      now: at,
    });
    // held or booked by somebody meanwhile: theirs
    if (!bookingId) return [];
    await repo.insertOffer(tx, { entryId: next.id, bookingId, startsAt, now: at });
    await jobs.enqueue(tx, { kind: BOOKING_JOBS.expireHold, runAt: holdExpiresAt, payload: { bookingId } });
    await announceBooking(ctx, tx, { id: bookingId, userId: next.userId, trainerId });
    return [
      await jobs.enqueue(tx, {
        kind: BOOKING_JOBS.mail,
        runAt: at,
        payload: { bookingId, kind: 'offered', to: 'user' },
        claimFor: RUN_NOW_CLAIM_MS,
      }),
    ];
  });
  await runBookingMails(ctx, mailJobs);
}

import { BOOKING_MSG } from '@spotter/shared';
import type { AccountLeftReason } from './account-jobs';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import { returnToBalance } from './book-from-balance';
import { refundWholeBalance } from './packages';
import * as packagesRepo from './packages.repo';
import * as paymentsRepo from './payments.repo';
import { refundBooking } from './refund-booking';
import { releaseHold } from './release-hold';

/** What the other side of a session reads as the reason, on the session and in the mail. */
const REASON_WORDS: Record<'user' | 'trainer', Record<AccountLeftReason, string>> = {
  trainer: { 'account-deleted': BOOKING_MSG.trainerLeft, suspended: BOOKING_MSG.trainerLeft },
  user: { 'account-deleted': BOOKING_MSG.userLeft, suspended: BOOKING_MSG.userLeft },
};

/** One refund that did not happen this time (the provider down, a timeout): the job runs again. */
class RefundsOutstanding extends Error {
  constructor(who: { role: string; id: string }, failed: number, cause: unknown) {
    super(`${failed} refund(s) of the sessions of ${who.role} ${who.id} failed; the job retries`, { cause });
    this.name = 'RefundsOutstanding';
  }
}

/**
 * An account left (a trainer deleted their account; an operator suspended or deleted a user or a
 * trainer): their unpaid holds are released, and every paid session that had not started at `since`
 * (when they left) is cancelled and refunded in full, whatever the time left, with the mail that
 * tells the other side (docs/decisions/042-money-ledger.md#a-trainer-who-leaves,
 * docs/product.md#suspending-an-account); the package balances they hold or sold are refunded.
 *
 * Runs as the durable jobs `booking.trainer-left` and `booking.user-left` (account-jobs.ts) and is idempotent: `refundBooking`
 * writes one refund per payment before it calls the provider (refunds.ts), with the provider's
 * request id derived from it, so a run after a crash, or a retry, refunds nothing twice. Holds go
 * first, so a capture racing them either confirmed before (its session is then refunded here) or
 * finds its hold released. A refund the provider did not make (down, a timeout) is finished by its
 * own job; the run still throws after trying the others, so the runner's back-off runs it again for
 * anything that failed before its refund was written.
 */
export async function cancelAccountSessions(
  ctx: BookingsContext,
  { who, reason, since = ctx.now() }: { who: { role: 'user' | 'trainer'; id: string }; reason: AccountLeftReason; since?: Date },
): Promise<{ released: number; refunded: number }> {
  const { db, log } = ctx;
  const words = REASON_WORDS[who.role][reason];
  let released = 0;
  let refunded = 0;

  const now = ctx.now();
  const holds = (await bookingsRepo.listBookingsOf(db, who, now)).filter(
    (b) => b.status === 'pending' && b.holdExpiresAt !== null && b.holdExpiresAt > now,
  );
  for (const booking of holds) if (await releaseHold(ctx, { booking, by: who.role })) released++;

  const failures: unknown[] = [];
  const seen = new Set<string>();
  // a page at a time: a refunded session leaves the list, one that failed is not tried twice in a run
  for (;;) {
    const sessions = (await bookingsRepo.listUpcomingConfirmed(db, who, since)).filter((b) => !seen.has(b.id));
    if (sessions.length === 0) break;
    for (const session of sessions) {
      seen.add(session.id);
      // paid from a package: back to the balance, which is refunded below with the rest
      if (session.balanceId) {
        if (await returnToBalance(ctx, { row: session, by: who.role, reason: words })) refunded++;
        continue;
      }
      const payment = await paymentsRepo.findPaymentOfBooking(db, session.id);
      if (!payment || payment.status !== 'completed') {
        log.error({ bookingId: session.id, who }, 'a confirmed booking without a completed payment');
        continue;
      }
      try {
        const changed = await refundBooking(ctx, {
          payment,
          reason: `${who.role} left (${reason})`,
          cancelledBy: who.role,
          cancelReason: words,
        });
        if (changed) refunded++;
      } catch (err) {
        log.warn({ err, bookingId: session.id, who }, 'refund of a departed account’s session failed; will retry');
        failures.push(err);
      }
    }
  }
  // the packages their users bought, or they bought: every balance refunded through the provider (docs/product.md#packages)
  for (const balanceId of await packagesRepo.openBalanceIdsOf(db, who)) {
    try {
      await refundWholeBalance(ctx, balanceId);
    } catch (err) {
      log.warn({ err, balanceId, who }, 'refund of a departed account’s package balance failed; will retry');
      failures.push(err);
    }
  }
  log.info({ who, reason, released, refunded, failed: failures.length }, 'a departed account’s sessions cancelled');
  if (failures.length > 0) throw new RefundsOutstanding(who, failures.length, failures[0]);
  return { released, refunded };
}

import {
  DISPUTE_MSG,
  formatDateTimeIn,
  isId,
  POLICY_V1,
  type DisputeOutcome,
  type DisputeRuleId,
  type TConsoleDispute,
  type TDispute,
  type TDisputeRequest,
  type TDisputeResponse,
} from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import { ProviderUnavailableError } from '../money';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import * as repo from './disputes.repo';
import * as paymentsRepo from './payments.repo';
import { refundPart } from './refunds';
import { findBalanceSession, refundBalanceSession, refundsOfSession } from './refund-balance-session';

const HOUR = 60 * 60_000;

/**
 * What the rules table decides (docs/decisions/047-disputes-by-rule.md), from the facts Spotter holds
 * when the dispute is opened, in this order: too late (closed); the payment went back in full before
 * (closed); the trainer cancelled and money is left (all of it refunded); otherwise an operator decides.
 */
export function decideByRule(f: {
  now: Date;
  endsAt: Date;
  disputeHours: number;
  paidCents: number;
  askedCents: number;
  cancelledBy: 'user' | 'trainer' | null;
}): { rule: Exclude<DisputeRuleId, 'operator'>; outcome: DisputeOutcome } | { rule: 'operator' } {
  if (f.now.getTime() > f.endsAt.getTime() + f.disputeHours * HOUR) return { rule: 'too-late', outcome: 'closed' };
  if (f.askedCents >= f.paidCents) return { rule: 'refunded-already', outcome: 'closed' };
  if (f.cancelledBy === 'trainer') return { rule: 'trainer-cancelled', outcome: 'refund-full' };
  return { rule: 'operator' };
}

function toDispute(d: repo.DisputeRow): TDispute {
  return {
    _id: d.id,
    bookingId: d.bookingId,
    reason: d.reason as TDispute['reason'],
    note: d.note,
    createdAt: d.createdAt.toISOString(),
    status: d.status,
    rule: (d.rule as TDispute['rule']) ?? null,
    outcome: (d.outcome as TDispute['outcome']) ?? null,
    refunded: d.refundCents === null ? null : fromCents(d.refundCents),
    decidedAt: d.decidedAt?.toISOString() ?? null,
    decisionReason: d.decisionReason,
  };
}

/**
 * The session's user disputes it (POST /api/bookings/:id/dispute): recorded once per session with the
 * rule that decides it where the facts decide (a refund made at once for a trainer's cancellation),
 * otherwise left open for an operator; while it is open, the session's payout waits.
 */
export async function openDispute(
  ctx: BookingsContext,
  { userId, bookingId, input }: { userId: string; bookingId: string; input: TDisputeRequest & { note: string } },
): Promise<{ status: 201; body: TDisputeResponse }> {
  const booking = isId(bookingId) ? await bookingsRepo.findBooking(ctx.db, bookingId) : undefined;
  if (!booking || booking.userId !== userId) throw new AppError('NOT_FOUND', DISPUTE_MSG.notFound);
  const payment = await paymentsRepo.findPaymentOfBooking(ctx.db, bookingId);
  // paid from a balance: the session's price is what it paid (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
  const session = payment ? undefined : await findBalanceSession(ctx, bookingId);
  if (!payment && !session) throw new AppError('CONFLICT', DISPUTE_MSG.notPaid);
  const paidCents = payment ? payment.amountCents : session!.priceCents;
  if (booking.disputeStatus) throw new AppError('CONFLICT', DISPUTE_MSG.already);
  const now = ctx.now();
  if (booking.status === 'confirmed' && booking.endsAt > now) throw new AppError('CONFLICT', DISPUTE_MSG.notOver);
  const policy = booking.policy ?? POLICY_V1;
  const asked = payment
    ? await paymentsRepo.askedRefundsOf(ctx.db, payment.provider, payment.providerOrderId)
    : (await refundsOfSession(ctx, session!)).asked;
  const decided = decideByRule({
    now,
    endsAt: booking.endsAt,
    disputeHours: policy.disputeHours,
    paidCents,
    askedCents: asked,
    cancelledBy: booking.status === 'cancelled' || booking.status === 'refunded' ? booking.cancelledBy : null,
  });
  const refundCents = decided.rule === 'trainer-cancelled' ? paidCents - asked : null;
  const words =
    decided.rule === 'too-late'
      ? DISPUTE_MSG.tooLate(
          formatDateTimeIn(new Date(booking.endsAt.getTime() + policy.disputeHours * HOUR), booking.timeZone ?? 'UTC'),
        )
      : decided.rule === 'refunded-already'
        ? DISPUTE_MSG.refundedAlready
        : decided.rule === 'trainer-cancelled'
          ? DISPUTE_MSG.trainerCancelled
          : DISPUTE_MSG.opened;
  const record = async (tx: Tx) => {
    if (decided.rule === 'operator') {
      // an open dispute holds the share: inserted under the share's lock, which the sweep takes to
      // make it payable and reads the open disputes under, so one of them sees the other
      // (docs/decisions/050-payable-after-the-dispute-window.md)
      await paymentsRepo.lockShare(tx, bookingId);
      const closesAt = new Date(booking.endsAt.getTime() + policy.disputeHours * HOUR);
      const payableAt = await paymentsRepo.shareMadePayableAt(tx, bookingId);
      // the sweep found the window closed first (its clock at the deadline as this request came in)
      if (payableAt && payableAt >= closesAt)
        throw new AppError('CONFLICT', DISPUTE_MSG.tooLate(formatDateTimeIn(closesAt, booking.timeZone ?? 'UTC')));
    }
    return repo.insertDispute(tx, {
      bookingId,
      userId,
      trainerId: booking.trainerId,
      reason: input.reason,
      note: input.note,
      createdAt: now,
      status: decided.rule === 'operator' ? 'open' : 'decided',
      rule: decided.rule === 'operator' ? null : decided.rule,
      outcome: 'outcome' in decided ? decided.outcome : null,
      refundCents,
      decidedAt: decided.rule === 'operator' ? null : now,
      decidedBy: null,
      decisionReason: decided.rule === 'operator' ? null : words,
    });
  };
  let row: repo.DisputeRow | undefined;
  if (refundCents && session) {
    // paid from a balance: to the card through its balance's capture, the refund's row and the decided dispute in one transaction
    try {
      await refundBalanceSession(
        ctx,
        { session, amountCents: refundCents, reason: DISPUTE_MSG.trainerCancelled, key: `dispute-open:${bookingId}` },
        async (tx) => {
          row = await record(tx);
          if (!row) throw new AppError('CONFLICT', DISPUTE_MSG.already);
        },
      );
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  } else if (refundCents && payment) {
    // the refund's row and the decided dispute in one transaction: both or neither
    try {
      await refundPart(
        ctx,
        { payment, amountCents: refundCents, reason: DISPUTE_MSG.trainerCancelled, key: `dispute-open:${bookingId}` },
        async (tx) => {
          row = await record(tx);
          if (!row) throw new AppError('CONFLICT', DISPUTE_MSG.already);
        },
      );
    } catch (err) {
      // written with its job: PayPal's silence is settled by the job
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  } else row = await ctx.db.transaction(record);
  if (!row) throw new AppError('CONFLICT', DISPUTE_MSG.already);
  return { status: 201, body: { dispute: toDispute(row), message: words } };
}

function toConsoleDispute(r: repo.DisputeListRow): TConsoleDispute {
  return {
    ...toDispute(r.dispute),
    userId: r.dispute.userId,
    userName: `${r.userFirst} ${r.userLast}`.trim(),
    trainerId: r.dispute.trainerId,
    trainerName: `${r.trainerFirst} ${r.trainerLast}`.trim(),
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    bookingStatus: r.bookingStatus,
    paid: fromCents(r.paidCents ?? 0),
    refundable: fromCents(Math.max(0, (r.paidCents ?? 0) - r.askedCents)),
  };
}

/** The operators' queue (GET /api/console/disputes). */
export async function listDisputes(ctx: Pick<BookingsContext, 'db'>, status?: 'open' | 'decided'): Promise<TConsoleDispute[]> {
  return (await repo.listDisputes(ctx.db, { status })).map(toConsoleDispute);
}

type Decision = {
  operatorId: string;
  disputeId: string;
  outcome: 'refund-full' | 'refund-part' | 'no-refund';
  amountCents?: number;
  reason: string;
};
type DecisionAudit = (tx: Tx, entry: { before: object; after: object; bookingId: string }) => Promise<void>;

/**
 * An operator decides an open dispute (POST /api/console/disputes/:id/decide): a full or part refund
 * through the money layer, or none; the decision, its audit entry and the refund's row are written in
 * one transaction, so a second operator deciding at once finds it decided and changes nothing.
 */
export async function decideDispute(ctx: BookingsContext, d: Decision, audit: DecisionAudit): Promise<TConsoleDispute> {
  const found = isId(d.disputeId) ? await repo.findDispute(ctx.db, d.disputeId) : undefined;
  if (!found) throw new AppError('NOT_FOUND', DISPUTE_MSG.disputeNotFound);
  if (found.status !== 'open') throw new AppError('CONFLICT', DISPUTE_MSG.decidedAlready);
  const payment = await paymentsRepo.findPaymentOfBooking(ctx.db, found.bookingId);
  // paid from a balance: the session's price and its own refunds (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
  const session = payment ? undefined : await findBalanceSession(ctx, found.bookingId);
  const asked = payment
    ? await paymentsRepo.askedRefundsOf(ctx.db, payment.provider, payment.providerOrderId)
    : session
      ? (await refundsOfSession(ctx, session)).asked
      : 0;
  const left = payment ? payment.amountCents - asked : session ? session.priceCents - asked : 0;
  const cents = d.outcome === 'no-refund' ? 0 : d.outcome === 'refund-full' ? left : d.amountCents!;
  if (cents > left) {
    const words = `At most $${fromCents(left).toFixed(2)} is left to refund on this session`;
    throw new AppError('VALIDATION_FAILED', words, { amount: words });
  }
  const at = ctx.now();
  const decide = async (tx: Tx) => {
    const open = await repo.lockOpenDispute(tx, found.id);
    if (!open) throw new AppError('CONFLICT', DISPUTE_MSG.decidedAlready);
    await repo.decideDispute(tx, found.id, {
      rule: 'operator',
      outcome: d.outcome,
      refundCents: cents,
      decidedAt: at,
      decidedBy: d.operatorId,
      decisionReason: d.reason,
    });
    await audit(tx, {
      before: { status: 'open', refundedCents: asked },
      after: { status: 'decided', outcome: d.outcome, refundCents: cents },
      bookingId: found.bookingId,
    });
  };
  if (cents > 0 && payment) {
    try {
      const refund = await refundPart(
        ctx,
        { payment, amountCents: cents, reason: `Dispute decided: ${d.reason}`, key: `dispute:${found.id}` },
        decide,
      );
      // the dispute's refund written by another decision at once: that one decided it, not this one
      if (!refund.mine) throw new AppError('CONFLICT', DISPUTE_MSG.decidedAlready);
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  } else if (cents > 0 && session) {
    let decidedHere = false;
    try {
      await refundBalanceSession(
        ctx,
        { session, amountCents: cents, reason: `Dispute decided: ${d.reason}`, key: `dispute:${found.id}` },
        async (tx, row) => {
          await decide(tx);
          decidedHere = Boolean(row);
        },
      );
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
    // the dispute's refund written by another decision at once: that one decided it, not this one
    if (!decidedHere) throw new AppError('CONFLICT', DISPUTE_MSG.decidedAlready);
  } else await ctx.db.transaction(decide);
  const [row] = await repo.listDisputes(ctx.db, { id: found.id });
  return toConsoleDispute(row);
}

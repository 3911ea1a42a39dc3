import type {
  TConsoleDispute,
  TDisputeDecision,
  TConsoleBooking,
  TConsoleBookingsQuery,
  TConsoleLedgerResponse,
  TConsoleRefundResponse,
} from '@spotter/shared';
import { DISPUTE_MSG } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { toCents } from '../../lib/money';
import { writeAudit, type ConsoleDeps } from './operators';

/**
 * What the console needs of the bookings and money modules (wired in app.ts, so this module imports
 * neither; docs/product.md#refunds-by-operators).
 */
export type MoneyHooks = {
  searchBookings(f: TConsoleBookingsQuery): Promise<TConsoleBooking[]>;
  /**
   * The refund through the money layer; `audit` runs in the refund row's transaction (a repeated
   * request, by its Idempotency-Key or its content, answers the first one's refund and writes none).
   */
  refundBooking(
    input: { operatorId: string; bookingId: string; amountCents?: number; reason: string; idempotencyKey?: string },
    audit: (tx: Tx, entry: { before: object; after: object; refundId: string }) => Promise<void>,
  ): Promise<TConsoleRefundResponse>;
  /** The ledger check run now, without asking the providers. */
  ledger(): Promise<Pick<TConsoleLedgerResponse, 'differences'>>;
  /** Disputes of sessions (docs/decisions/047-disputes-by-rule.md): the queue, and an operator's decision. */
  listDisputes(status?: 'open' | 'decided'): Promise<TConsoleDispute[]>;
  decideDispute(
    d: {
      operatorId: string;
      disputeId: string;
      outcome: 'refund-full' | 'refund-part' | 'no-refund';
      amountCents?: number;
      reason: string;
    },
    audit: (tx: Tx, entry: { before: object; after: object; bookingId: string }) => Promise<void>,
  ): Promise<TConsoleDispute>;
};

export type MoneyDeps = ConsoleDeps & { money: MoneyHooks };

/** An operator's refund of a session, in full or in part, with its audit entry in the refund's transaction. */
export function refundBooking(
  deps: MoneyDeps,
  {
    operatorId,
    bookingId,
    amount,
    reason,
    idempotencyKey,
  }: { operatorId: string; bookingId: string; amount?: number; reason: string; idempotencyKey?: string },
): Promise<TConsoleRefundResponse> {
  return deps.money.refundBooking(
    { operatorId, bookingId, amountCents: amount === undefined ? undefined : toCents(amount), reason, idempotencyKey },
    (tx, e) =>
      writeAudit(tx, {
        at: deps.now(),
        operatorId,
        action: 'booking.refund',
        targetKind: 'booking',
        targetId: bookingId,
        reason,
        before: e.before,
        after: { ...e.after, refundId: e.refundId },
      }),
  );
}

export async function ledgerFindings(deps: MoneyDeps): Promise<TConsoleLedgerResponse> {
  const checkedAt = deps.now().toISOString();
  return { checkedAt, ...(await deps.money.ledger()) };
}

/** An operator's decision of a dispute, with its audit entry in the decision's (and refund's) transaction. */
export async function decideDispute(
  deps: MoneyDeps,
  { operatorId, disputeId, decision }: { operatorId: string; disputeId: string; decision: TDisputeDecision },
) {
  const dispute = await deps.money.decideDispute(
    {
      operatorId,
      disputeId,
      outcome: decision.outcome,
      amountCents: decision.amount === undefined ? undefined : toCents(decision.amount),
      reason: decision.reason,
    },
    (tx, e) =>
      writeAudit(tx, {
        at: deps.now(),
        operatorId,
        action: 'dispute.decide',
        targetKind: 'dispute',
        targetId: disputeId,
        reason: decision.reason,
        before: { ...e.before, bookingId: e.bookingId },
        after: e.after,
      }),
  );
  return { dispute, message: DISPUTE_MSG.decided };
}

import { CURRENCY, PAYMENT_MSG, PLATFORM_FEE_PERCENT, type TPayment, type TPaymentsResponse } from '@spotter/shared';
import type { Db } from '../../db/client';
import { fromCents, toCents } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { FORMER_MEMBER } from '../accounts';
import type { BookingsService } from './bookings.service';
import { trainerLedgerTotals, type PaymentProvider } from '../money';
import * as repo from './payments.repo';
import { feePart } from './outside-refund';

type PaymentsDeps = {
  db: Db;
  /** The provider new orders go to. */
  provider: PaymentProvider;
  bookings: Pick<BookingsService, 'listUpcomingConfirmed'>;
};

/**
 * What a payment row keeps: all of it, nothing once refunded, or what part refunds (an operator's, a
 * dispute's, one made at the provider) left, with the fee in proportion (as the ledger took it back:
 * outside-refund.ts).
 */
function keptOf(row: Pick<repo.PaymentListRow, 'status' | 'amountCents' | 'feeCents' | 'refundedCents'>) {
  if (row.status === 'refunded') return { refunded: row.amountCents, amount: 0, fee: 0 };
  const refunded = Math.min(row.refundedCents, row.amountCents);
  return { refunded, amount: row.amountCents - refunded, fee: row.feeCents - feePart(row, 0, refunded) };
}

function toPayment(row: repo.PaymentListRow, role: 'user' | 'trainer'): TPayment {
  const kept = keptOf(row);
  const fee = role === 'trainer' ? kept.fee : 0;
  return {
    _id: row.id,
    bookingId: row.bookingId,
    trainerId: row.trainerId,
    userId: row.userId,
    trainerFirstName: row.trainerDeletedAt ? FORMER_MEMBER.firstName : row.trainerFirstName,
    trainerLastName: row.trainerDeletedAt ? FORMER_MEMBER.lastName : row.trainerLastName,
    userFirstName: row.userDeletedAt ? FORMER_MEMBER.firstName : row.userFirstName,
    userLastName: row.userDeletedAt ? FORMER_MEMBER.lastName : row.userLastName,
    startsAt: row.startsAt.toISOString(),
    provider: row.provider,
    orderId: row.providerOrderId,
    captureId: row.captureId,
    status: row.status,
    currency: row.currency,
    amount: fromCents(row.amountCents),
    fee: fromCents(fee),
    net: fromCents(kept.amount - fee),
    refunded: fromCents(kept.refunded),
    paidAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** The payment reads: which provider takes payments, and a caller's payments with their totals. */
export function createPaymentsService({ db, provider, bookings }: PaymentsDeps) {
  return {
    config() {
      return provider.name === 'paypal'
        ? { provider: 'paypal' as const, clientId: provider.clientId, currency: CURRENCY }
        : { provider: 'demo' as const, currency: CURRENCY, label: PAYMENT_MSG.demoLabel };
    },

    /** What the caller paid (users) or earned (trainers), with totals that add up to the rows. */
    async listPayments(caller: Caller): Promise<TPaymentsResponse> {
      const all = await repo.listPaymentsOf(db, caller);
      // money captured after its booking stopped being payable was never the trainer's: only its payer sees it
      const rows = caller.role === 'trainer' ? all.filter((r) => r.feeCents > 0) : all;
      const list = rows.map((r) => toPayment(r, caller.role));
      let charged = 0;
      let refunded = 0;
      let fees = 0;
      // sessions paid from balances, a row each as the ledger has them: a trainer's from packages and
      // weekly series paid by card; a user's weekly series paid by card (refunded once cancelled)
      const fromBalances = await repo.balanceSessionsOf(db, caller);
      for (const r of fromBalances) {
        const amount = Number(r.amount);
        const back = r.given_back_at !== null;
        // given back whole, or in part by its own refunds to the card, kept as a card payment's row is
        // (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
        const kept = keptOf({
          status: back ? 'refunded' : 'completed',
          amountCents: amount,
          feeCents: Number(r.fee),
          refundedCents: Number(r.refunded),
        });
        const fee = caller.role === 'trainer' ? kept.fee : 0;
        charged += amount;
        refunded += kept.refunded;
        fees += fee;
        list.push({
          _id: r.id,
          bookingId: r.booking_id,
          trainerId: r.trainer_id,
          userId: r.user_id,
          trainerFirstName: r.trainer_deleted_at ? FORMER_MEMBER.firstName : r.trainer_first_name,
          trainerLastName: r.trainer_deleted_at ? FORMER_MEMBER.lastName : r.trainer_last_name,
          userFirstName: r.user_deleted_at ? FORMER_MEMBER.firstName : r.user_first_name,
          userLastName: r.user_deleted_at ? FORMER_MEMBER.lastName : r.user_last_name,
          startsAt: new Date(r.starts_at).toISOString(),
          provider: r.kind === 'series' ? (r.provider ?? 'demo') : 'package',
          orderId: r.provider_order_id ?? '',
          captureId: r.kind === 'series' ? (r.capture_id ?? '') : '',
          status: back ? 'refunded' : 'completed',
          currency: r.currency,
          amount: fromCents(amount),
          fee: fromCents(fee),
          net: fromCents(kept.amount - fee),
          refunded: fromCents(kept.refunded),
          paidAt: new Date(r.created_at).toISOString(),
          refundedAt: back ? new Date(r.given_back_at!).toISOString() : null,
        });
      }
      if (fromBalances.length) list.sort((a, b) => Date.parse(b.paidAt) - Date.parse(a.paidAt));
      for (const r of rows) {
        const kept = keptOf(r);
        charged += r.amountCents;
        refunded += kept.refunded;
        if (caller.role === 'trainer') fees += kept.fee;
      }
      // a trainer's money as the ledger has it (docs/decisions/042-money-ledger.md): not due yet,
      // due (in a payout not settled yet included), paid out, refunded
      let ledger = {};
      if (caller.role === 'trainer') {
        const held = await trainerLedgerTotals(db, caller.id, CURRENCY);
        // refunded as the ledger has it (the rows' sum, for the sessions the trainer had)
        refunded = held.refundedCents;
        ledger = {
          pending: fromCents(held.pendingCents),
          payable: fromCents(held.payableCents + held.payingCents),
          paidOut: fromCents(held.paidOutCents),
        };
      }
      const upcoming = await bookings.listUpcomingConfirmed(caller);
      const upcomingCents = upcoming.reduce((sum, b) => sum + toCents(b.price), 0);
      return {
        role: caller.role,
        feePercent: caller.role === 'trainer' ? PLATFORM_FEE_PERCENT : 0,
        currency: CURRENCY,
        payments: list,
        totals: {
          count: list.length,
          charged: fromCents(charged),
          refunded: fromCents(refunded),
          fees: fromCents(fees),
          net: fromCents(charged - refunded - fees),
          ...ledger,
        },
        upcoming: { count: upcoming.length, amount: fromCents(upcomingCents), bookings: upcoming },
      };
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;

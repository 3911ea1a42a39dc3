import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ledgerEntries, ledgerTransactions } from '../../db/schema';
import { account, balances } from './ledger.repo';

type Q = Db | Tx;

/**
 * A trainer's money as the ledger has it (docs/decisions/042-money-ledger.md), in cents: shares
 * not due yet, due, in a payout the provider has not settled, and paid out.
 */
export async function trainerLedgerTotals(db: Q, trainerId: string, currency = 'USD') {
  const pending = account.trainerPending(trainerId);
  const payable = account.trainerPayable(trainerId);
  const paying = account.trainerPaying(trainerId);
  const held = await balances(db, [pending, payable, paying], currency);
  // what left `paying` in `payout-paid` transactions: the payouts the provider paid
  const [paid] = await db
    .select({ total: sql<string | null>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(
      and(eq(ledgerTransactions.kind, 'payout-paid'), eq(ledgerEntries.account, paying), eq(ledgerEntries.currency, currency)),
    );
  return {
    pendingCents: held.get(pending)!,
    payableCents: held.get(payable)!,
    payingCents: held.get(paying)!,
    paidOutCents: -Number(paid?.total ?? 0),
  };
}

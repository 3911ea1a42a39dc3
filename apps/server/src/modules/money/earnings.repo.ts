import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ledgerEntries, ledgerTransactions } from '../../db/schema';
import { account, balances } from './ledger.repo';

type Q = Db | Tx;

/**
 * A trainer's money as the ledger has it (docs/decisions/042-money-ledger.md), in cents: shares
 * not due yet, due, in a payout the provider has not settled, paid out, and the sessions refunded
 * to clients (their whole price).
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
  // what went back to clients out of this trainer's shares: the world side of refunds that took from them
  const refunded = await db.execute(sql`
    select coalesce(sum(w.amount_cents), 0)::text as total
    from ledger_transactions t
    join ledger_entries w on w.transaction_id = t.id and w.account like 'world:%' and w.currency = ${currency}
    where t.kind in ('refund', 'reversal') and exists (
      select 1 from ledger_entries e
      where e.transaction_id = t.id and e.account in (${pending}, ${payable}) and e.amount_cents < 0
    )`);
  return {
    refundedCents: Number((refunded as unknown as { rows: Array<{ total: string }> }).rows[0]?.total ?? 0),
    pendingCents: held.get(pending)!,
    payableCents: held.get(payable)!,
    payingCents: held.get(paying)!,
    paidOutCents: -Number(paid?.total ?? 0),
  };
}

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ledgerEntries, ledgerTransactions, LEDGER_KINDS } from '../../db/schema';

type Q = Db | Tx;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The ledger's accounts (docs/decisions/042-money-ledger.md#accounts-and-transactions). Money into
 * an account is positive. Only `world:*` (money outside Spotter, at the provider) may go below zero.
 */
export const account = {
  /** Money outside Spotter: a payment takes from it, a refund or a payout gives back. */
  world: (provider: string) => `world:${provider}`,
  /** Spotter's share of the sessions paid. */
  fees: 'platform:fees',
  /** A trainer's share of sessions paid and not yet due (the session is ahead, or the time to dispute it has not ended). */
  trainerPending: (trainerId: string) => `trainer:${trainerId}:pending`,
  /** A trainer's share due, waiting for a payout. */
  trainerPayable: (trainerId: string) => `trainer:${trainerId}:payable`,
  /** In a payout the provider has not settled yet. */
  trainerPaying: (trainerId: string) => `trainer:${trainerId}:paying`,
  /**
   * What Spotter lost: money given back to a payer (a reversal, a refund made at the provider) out
   * of a trainer's share that was paid out already. The one account of Spotter's own that may go
   * below zero (docs/decisions/042-money-ledger.md#reversals).
   */
  losses: 'platform:losses',
  /** What a user has left of a package bought from a trainer (docs/product.md#packages): Spotter owes it to them until a session takes it. */
  balance: (balanceId: string) => `balance:${balanceId}`,
  /** Money captured that no booking takes (a wrong amount or currency, too late), until it is refunded. */
  suspense: (provider: string, orderId: string) => `suspense:${provider}:${orderId}`,
};

export type Posting = { account: string; amountCents: number; currency: string };

type LedgerTransaction = {
  /** Unique: the same key again writes nothing (a retried capture, refund or payout). */
  key: string;
  kind: LedgerKind;
  entries: Posting[];
  bookingId?: string | null;
  trainerId?: string | null;
  userId?: string | null;
  provider?: string | null;
  providerOrderId?: string | null;
  payoutId?: string | null;
  memo?: string;
  at?: Date;
};

export class LedgerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** Accounts that may go below zero: money outside Spotter, and Spotter's losses. */
const isWorld = (a: string) => a.startsWith('world:') || a === account.losses;

/**
 * Writes one balanced transaction in the caller's transaction; false when its key was written
 * before (nothing is written again). Throws LedgerError when it does not balance per currency, has
 * an amount that is not whole cents, or would take an account other than `world:*` or `platform:losses` below zero (each
 * such account is locked for the rest of the caller's transaction, so concurrent writes wait).
 */
export async function post(tx: Tx, t: LedgerTransaction): Promise<boolean> {
  const entries = t.entries.filter((e) => e.amountCents !== 0);
  if (!entries.length) throw new LedgerError(`ledger transaction ${t.key} moves nothing`);
  const sums = new Map<string, number>();
  for (const e of entries) {
    if (!Number.isSafeInteger(e.amountCents)) throw new LedgerError(`ledger amount ${e.amountCents} is not whole cents`);
    if (!/^[A-Z]{3}$/.test(e.currency)) throw new LedgerError(`ledger currency ${e.currency} is not an ISO code`);
    sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amountCents);
  }
  for (const [currency, sum] of sums)
    if (sum !== 0) throw new LedgerError(`ledger transaction ${t.key} does not balance: ${sum} ${currency} off`);

  // the accounts it takes from, locked in a fixed order (no deadlock between two writers)
  const debited = [
    ...new Set(entries.filter((e) => e.amountCents < 0 && !isWorld(e.account)).map((e) => `${e.account}|${e.currency}`)),
  ].sort();
  for (const k of debited) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'ledger:' + k}, 0))`);

  const [row] = await tx
    .insert(ledgerTransactions)
    .values({
      key: t.key,
      kind: t.kind,
      bookingId: t.bookingId ?? null,
      trainerId: t.trainerId ?? null,
      userId: t.userId ?? null,
      provider: t.provider ?? null,
      providerOrderId: t.providerOrderId ?? null,
      payoutId: t.payoutId ?? null,
      memo: t.memo ?? '',
      ...(t.at ? { createdAt: t.at } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: ledgerTransactions.id });
  if (!row) return false;

  for (const k of debited) {
    // the currency is the last three letters (an account name may hold '|')
    const acc = k.slice(0, -4);
    const currency = k.slice(-3);
    const out = entries.filter((e) => e.account === acc && e.currency === currency).reduce((s, e) => s + e.amountCents, 0);
    const before = await balance(tx, acc, currency);
    if (before + out < 0)
      throw new LedgerError(`ledger transaction ${t.key} would take ${acc} below zero (${before} ${currency}, moving ${out})`);
  }
  await tx
    .insert(ledgerEntries)
    .values(
      entries.map((e) => ({ transactionId: row.id, account: e.account, currency: e.currency, amountCents: e.amountCents })),
    );
  return true;
}

/** An account's balance in cents: the sum of its entries. */
export async function balance(db: Q, acc: string, currency = 'USD'): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.account, acc), eq(ledgerEntries.currency, currency)));
  return Number(row?.total ?? 0);
}

/** Several accounts' balances at once (absent: 0). */
export async function balances(db: Q, accounts: string[], currency = 'USD'): Promise<Map<string, number>> {
  const out = new Map<string, number>(accounts.map((a) => [a, 0]));
  if (!accounts.length) return out;
  const rows = await db
    .select({ account: ledgerEntries.account, total: sql<string>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(and(inArray(ledgerEntries.account, accounts), eq(ledgerEntries.currency, currency)))
    .groupBy(ledgerEntries.account);
  for (const r of rows) out.set(r.account, Number(r.total));
  return out;
}

/** Whether a transaction with this key was written. */
export async function hasTransaction(db: Q, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.key, key))
    .limit(1);
  return !!row;
}

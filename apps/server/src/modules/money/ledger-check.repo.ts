import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { paymentEvents } from '../../db/schema';

// The reconciliation's queries (ledger-check.ts, docs/decisions/042-money-ledger.md): read-only, on
// the ledger, the payments and refunds tables and the payment events. What an order paid, net, is
// what left `world:<provider>` in the transactions that name that provider and order.

type Q = Db | Tx;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
async function select<T>(db: Q, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}
/** Sums come back as text (bigint): whole cents, safe as numbers. */
const cents = (v: string | number | null | undefined) => Number(v ?? 0);

/** At most this many rows of one kind of difference are read: a broken ledger lists the first ones. */
const LIMIT = 1000;

export async function countTransactions(db: Q): Promise<number> {
  const [row] = await select<{ n: string }>(db, sql`select count(*)::text as n from ledger_transactions`);
  return cents(row?.n);
}

/** Transactions whose entries do not sum to zero in some currency (the database's trigger should make this impossible). */
export async function unbalancedTransactions(db: Q) {
  const rows = await select<{ key: string; kind: string; currency: string; total: string }>(
    db,
    sql`select t.key, t.kind, e.currency, sum(e.amount_cents)::text as total
        from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        group by t.id, t.key, t.kind, e.currency having sum(e.amount_cents) <> 0
        order by t.key limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, total: cents(r.total) }));
}

/** Transactions with no entries at all: they move nothing, so something meant to be written is missing. */
export async function emptyTransactions(db: Q) {
  return select<{ key: string; kind: string }>(
    db,
    sql`select t.key, t.kind from ledger_transactions t
        where not exists (select 1 from ledger_entries e where e.transaction_id = t.id)
        order by t.key limit ${LIMIT}`,
  );
}

/** Accounts below zero other than `world:*` (money outside Spotter) and `platform:losses`. */
export async function negativeAccounts(db: Q) {
  const rows = await select<{ account: string; currency: string; total: string }>(
    db,
    sql`select account, currency, sum(amount_cents)::text as total from ledger_entries
        where account not like 'world:%' and account <> 'platform:losses'
        group by account, currency having sum(amount_cents) < 0
        order by account limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, total: cents(r.total) }));
}

/** `suspense:*` accounts holding money: captured, placed on no booking, not refunded (yet). */
export async function suspenseBalances(db: Q) {
  const rows = await select<{ account: string; currency: string; total: string }>(
    db,
    sql`select account, currency, sum(amount_cents)::text as total from ledger_entries
        where account like 'suspense:%' group by account, currency having sum(amount_cents) <> 0
        order by account limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, total: cents(r.total) }));
}

/**
 * Every payment row beside what the refunds table and the ledger say of its order, in the
 * payment's currency: the completed refunds, and the ledger's net paid (what left world:<provider>).
 */
export async function paymentsWithLedger(db: Q) {
  const rows = await select<{
    provider: string;
    orderId: string;
    bookingId: string;
    amount: number;
    currency: string;
    status: string;
    refunded: string;
    ledgerPaid: string;
  }>(
    db,
    sql`select p.provider, p.provider_order_id as "orderId", p.booking_id as "bookingId", p.amount_cents as amount,
          p.currency, p.status,
          coalesce((select sum(r.amount_cents) from refunds r
            where r.provider = p.provider and r.provider_order_id = p.provider_order_id
              and r.status = 'completed' and r.currency = p.currency), 0)::text as refunded,
          coalesce((select -sum(e.amount_cents) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
            where t.provider = p.provider and t.provider_order_id = p.provider_order_id
              and e.account = 'world:' || p.provider and e.currency = p.currency), 0)::text as "ledgerPaid"
        from payments p order by p.created_at, p.id`,
  );
  return rows.map((r) => ({ ...r, amount: cents(r.amount), refunded: cents(r.refunded), ledgerPaid: cents(r.ledgerPaid) }));
}

/**
 * Per order and currency, where the completed refunds (refunds table) and the ledger's `refund`
 * and `reversal` transactions (what they gave back to world:<provider>) disagree.
 */
export async function refundsVersusLedger(db: Q) {
  const rows = await select<{ provider: string; orderId: string; currency: string; refunds: string; ledger: string }>(
    db,
    sql`with r as (
          select provider, provider_order_id, currency, sum(amount_cents) as total from refunds
          where status = 'completed' group by provider, provider_order_id, currency
        ), l as (
          select t.provider, t.provider_order_id, e.currency, sum(e.amount_cents) as total
          from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
          where t.kind in ('refund', 'reversal') and t.provider_order_id is not null and e.account = 'world:' || t.provider
          group by t.provider, t.provider_order_id, e.currency
        )
        select coalesce(r.provider, l.provider) as provider, coalesce(r.provider_order_id, l.provider_order_id) as "orderId",
          coalesce(r.currency, l.currency) as currency, coalesce(r.total, 0)::text as refunds, coalesce(l.total, 0)::text as ledger
        from r full join l on l.provider = r.provider and l.provider_order_id = r.provider_order_id and l.currency = r.currency
        where coalesce(r.total, 0) <> coalesce(l.total, 0)
        order by 1, 2, 3 limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, refunds: cents(r.refunds), ledger: cents(r.ledger) }));
}

/** Refunds asked of the provider whose outcome was never filled in, written before `before`. */
export async function refundsRequestedBefore(db: Q, before: Date) {
  const rows = await select<{
    key: string;
    provider: string;
    orderId: string;
    bookingId: string | null;
    amount: number;
    currency: string;
    createdAt: string | Date;
  }>(
    db,
    sql`select key, provider, provider_order_id as "orderId", booking_id as "bookingId", amount_cents as amount, currency,
          created_at as "createdAt"
        from refunds where status = 'requested' and created_at < ${before.toISOString()}::timestamptz
        order by created_at limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, amount: cents(r.amount), createdAt: new Date(r.createdAt) }));
}

/** Orders whose latest 'capture-unknown' event (before `before`) has no 'capture-settled' after it. */
export async function unsettledCaptures(db: Q, before: Date) {
  const rows = await select<{
    provider: string | null;
    orderId: string | null;
    bookingId: string | null;
    createdAt: string | Date;
  }>(
    db,
    sql`select distinct on (u.provider, u.provider_order_id) u.provider, u.provider_order_id as "orderId",
          u.booking_id as "bookingId", u.created_at as "createdAt"
        from payment_events u
        where u.kind = 'capture-unknown' and u.created_at < ${before.toISOString()}::timestamptz
          and not exists (select 1 from payment_events s where s.kind = 'capture-settled'
            and s.provider is not distinct from u.provider and s.provider_order_id is not distinct from u.provider_order_id
            and s.id > u.id)
        order by u.provider, u.provider_order_id, u.id desc limit ${LIMIT}`,
  );
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/**
 * The orders of these providers that have a payment row or a ledger transaction (since `since`
 * when given), each with the ledger's net paid per currency (what left world:<provider>).
 */
export async function ordersWithLedgerNet(db: Q, providers: string[], since?: Date) {
  if (!providers.length) return [];
  const list = sql.join(
    providers.map((p) => sql`${p}`),
    sql`, `,
  );
  const after = since ? sql`and created_at >= ${since.toISOString()}::timestamptz` : sql``;
  const rows = await select<{ provider: string; orderId: string; currency: string | null; paid: string | null }>(
    db,
    sql`with o as (
          select provider, provider_order_id from payments where provider in (${list}) ${after}
          union
          select provider, provider_order_id from ledger_transactions
          where provider in (${list}) and provider_order_id is not null ${after}
        )
        select o.provider, o.provider_order_id as "orderId", n.currency, n.paid::text as paid
        from o left join lateral (
          select e.currency, -sum(e.amount_cents) as paid
          from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
          where t.provider = o.provider and t.provider_order_id = o.provider_order_id and e.account = 'world:' || o.provider
          group by e.currency
        ) n on true
        order by 1, 2`,
  );
  const orders = new Map<string, { provider: string; orderId: string; paid: Map<string, number> }>();
  for (const r of rows) {
    const id = `${r.provider}\u0000${r.orderId}`;
    let order = orders.get(id);
    if (!order) orders.set(id, (order = { provider: r.provider, orderId: r.orderId, paid: new Map() }));
    if (r.currency) order.paid.set(r.currency, cents(r.paid));
  }
  return [...orders.values()];
}

/**
 * Whether a job of `kind` is waiting to run after `after`, checked and (by `enqueue`) added under
 * one lock, so two processes starting together schedule one.
 */
export async function scheduleOnce(db: Db, kind: string, after: Date, enqueue: (tx: Tx) => Promise<unknown>): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'schedule:' + kind}, 0))`);
    const [row] = await select<{ id: number }>(
      tx,
      sql`select id from jobs where kind = ${kind} and failed_at is null and run_at > ${after.toISOString()}::timestamptz limit 1`,
    );
    if (row) return false;
    await enqueue(tx);
    return true;
  });
}

/**
 * Writes each difference as a `ledger-difference` payment event, once: a difference found again by
 * the next day's check (the same words about the same thing) is not written again. Answers how many
 * were new.
 */
export async function recordDifferences(
  db: Db,
  differences: Array<{ kind: string; message: string; provider?: string; orderId?: string; bookingId?: string | null }>,
  at: Date,
): Promise<number> {
  if (!differences.length) return 0;
  const rows = await db
    .insert(paymentEvents)
    .values(
      differences.map((d) => ({
        kind: 'ledger-difference' as const,
        bookingId: d.bookingId ?? null,
        provider: d.provider ?? null,
        providerOrderId: d.orderId ?? null,
        externalId: `ledger-difference:${createHash('sha256').update(`${d.kind}\u0000${d.message}`).digest('hex')}`,
        details: { ...d },
        createdAt: at,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length;
}

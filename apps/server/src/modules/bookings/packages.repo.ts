import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, packageBalances as balances, trainerPackages as packages } from '../../db/schema';

type Q = Db | Tx;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export type PackageRow = typeof packages.$inferSelect;
export type BalanceRow = typeof balances.$inferSelect;

/** The packages trainers offer now (not archived), by trainer, cheapest per session first. */
export async function livePackagesOf(db: Q, trainerIds: string[]): Promise<PackageRow[]> {
  if (!trainerIds.length) return [];
  return db
    .select()
    .from(packages)
    .where(and(inArray(packages.trainerId, trainerIds), isNull(packages.archivedAt)))
    .orderBy(
      asc(packages.trainerId),
      sql`${packages.priceCents}::float8 / ${packages.sessions}`,
      asc(packages.sessions),
      asc(packages.id),
    );
}

export async function findLivePackage(db: Q, id: string): Promise<PackageRow | undefined> {
  const [row] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, id), isNull(packages.archivedAt)))
    .limit(1);
  return row;
}

/**
 * The trainer's packages become `wanted`: one identical to a live one keeps its row (and id), the
 * others are archived (balances bought from them keep what they were sold as) and new rows added.
 */
export async function replacePackages(
  tx: Tx,
  trainerId: string,
  wanted: Array<{ sessions: number; priceCents: number; validityMonths: number | null }>,
  now: Date,
) {
  const live = await tx
    .select()
    .from(packages)
    .where(and(eq(packages.trainerId, trainerId), isNull(packages.archivedAt)))
    .for('update');
  const keep = new Set<string>();
  const add: typeof wanted = [];
  for (const w of wanted) {
    const same = live.find(
      (p) =>
        !keep.has(p.id) && p.sessions === w.sessions && p.priceCents === w.priceCents && p.validityMonths === w.validityMonths,
    );
    if (same) keep.add(same.id);
    else add.push(w);
  }
  const archive = live.filter((p) => !keep.has(p.id)).map((p) => p.id);
  if (archive.length) await tx.update(packages).set({ archivedAt: now }).where(inArray(packages.id, archive));
  if (add.length)
    await tx.insert(packages).values(
      add.map((w) => ({
        trainerId,
        sessions: w.sessions,
        priceCents: w.priceCents,
        validityMonths: w.validityMonths,
        createdAt: now,
        archivedAt: null,
      })),
    );
}

/** A pending purchase of the package by the user, with its provider order (to answer the same order again). */
export async function findPendingPurchase(db: Q, userId: string, packageId: string, since: Date) {
  const [row] = await db
    .select()
    .from(balances)
    .where(
      and(
        eq(balances.userId, userId),
        eq(balances.packageId, packageId),
        eq(balances.status, 'pending'),
        sql`${balances.createdAt} > ${since.toISOString()}::timestamptz`,
        sql`${balances.providerOrderId} is not null`,
      ),
    )
    .orderBy(desc(balances.createdAt))
    .limit(1);
  return row;
}

export async function insertPurchase(
  tx: Tx,
  v: { userId: string; pkg: PackageRow; currency: string; now: Date },
): Promise<string> {
  const [row] = await tx
    .insert(balances)
    .values({
      userId: v.userId,
      trainerId: v.pkg.trainerId,
      kind: 'package',
      packageId: v.pkg.id,
      seriesId: null,
      sessions: v.pkg.sessions,
      priceCents: v.pkg.priceCents,
      currency: v.currency,
      validityMonths: v.pkg.validityMonths,
      status: 'pending',
      sessionsLeft: 0,
      provider: null,
      providerOrderId: null,
      captureId: null,
      createdAt: v.now,
      paidAt: null,
      expiresAt: null,
    })
    .returning({ id: balances.id });
  return row.id;
}

/** The bookings a balance paid for (each `redeem` of it): a weekly series' weeks its capture confirmed. */
export async function weeksPaidBy(db: Q, balanceId: string): Promise<Set<string>> {
  const result = await db.execute(sql`
    select t.booking_id from ledger_transactions t join bookings b on b.id = t.booking_id
    where t.kind = 'redeem' and b.balance_id = ${balanceId}`);
  return new Set((result as unknown as { rows: Array<{ booking_id: string }> }).rows.map((r) => r.booking_id));
}

/** The pending payment of a weekly series (with its provider order once made), to answer the same order again. */
export async function findPendingSeriesPurchase(db: Q, seriesId: string, userId: string) {
  const [row] = await db
    .select()
    .from(balances)
    .where(and(eq(balances.seriesId, seriesId), eq(balances.userId, userId), eq(balances.status, 'pending')))
    .orderBy(desc(balances.createdAt))
    .limit(1);
  return row;
}

/** The payment of a weekly series' held weeks by card: a `series` balance of their prices, pending until its capture. */
export async function insertSeriesPurchase(
  tx: Tx,
  v: { userId: string; trainerId: string; seriesId: string; sessions: number; priceCents: number; currency: string; now: Date },
): Promise<string> {
  const [row] = await tx
    .insert(balances)
    .values({
      userId: v.userId,
      trainerId: v.trainerId,
      kind: 'series',
      packageId: null,
      seriesId: v.seriesId,
      sessions: v.sessions,
      priceCents: v.priceCents,
      currency: v.currency,
      validityMonths: null,
      status: 'pending',
      sessionsLeft: 0,
      provider: null,
      providerOrderId: null,
      captureId: null,
      createdAt: v.now,
      paidAt: null,
      expiresAt: null,
    })
    .returning({ id: balances.id });
  return row.id;
}

export async function attachPurchaseOrder(db: Q, id: string, provider: 'paypal' | 'demo', providerOrderId: string) {
  await db
    .update(balances)
    .set({ provider, providerOrderId })
    // never replaces an order already attached: one order per purchase
    .where(and(eq(balances.id, id), eq(balances.status, 'pending'), sql`${balances.providerOrderId} is null`));
}

export async function findBalanceByOrder(db: Q, providerOrderId: string): Promise<BalanceRow | undefined> {
  const [row] = await db.select().from(balances).where(eq(balances.providerOrderId, providerOrderId)).limit(1);
  return row;
}

export async function findBalance(db: Q, id: string): Promise<BalanceRow | undefined> {
  const [row] = await db.select().from(balances).where(eq(balances.id, id)).limit(1);
  return row;
}

/** Locks the balance row to the end of the transaction: its sessions and its ledger account change together. */
export async function lockBalance(tx: Tx, id: string): Promise<BalanceRow | undefined> {
  const [row] = await tx.select().from(balances).where(eq(balances.id, id)).for('update');
  return row;
}

/** The user's balance with the trainer that is not pending nor closed (at most one: one package at a time), locked when `tx` is. */
export async function openBalanceOf(q: Q, userId: string, trainerId: string, lock = false): Promise<BalanceRow | undefined> {
  const query = q
    .select()
    .from(balances)
    .where(
      and(
        eq(balances.userId, userId),
        eq(balances.trainerId, trainerId),
        eq(balances.kind, 'package'),
        inArray(balances.status, ['active', 'refunding']),
      ),
    )
    .orderBy(desc(balances.paidAt))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function settleBalance(
  tx: Tx,
  id: string,
  v: { captureId: string; paidAt: Date; expiresAt: Date | null; sessions: number },
) {
  const rows = await tx
    .update(balances)
    .set({ status: 'active', sessionsLeft: v.sessions, captureId: v.captureId, paidAt: v.paidAt, expiresAt: v.expiresAt })
    .where(and(eq(balances.id, id), eq(balances.status, 'pending')))
    .returning({ id: balances.id });
  return rows.length > 0;
}

export async function setBalanceState(q: Q, id: string, v: { status?: BalanceRow['status']; sessionsLeft?: number }) {
  await q.update(balances).set(v).where(eq(balances.id, id));
}

/** The user's balances that are active or being refunded, with their trainers' names. */
export async function openBalancesOf(db: Q, userId: string) {
  return db
    .select({
      id: balances.id,
      trainerId: balances.trainerId,
      trainerFirstName: accounts.firstName,
      trainerLastName: accounts.lastName,
      sessions: balances.sessions,
      sessionsLeft: balances.sessionsLeft,
      priceCents: balances.priceCents,
      currency: balances.currency,
      status: balances.status,
      expiresAt: balances.expiresAt,
    })
    .from(balances)
    .innerJoin(accounts, eq(accounts.id, balances.trainerId))
    .where(and(eq(balances.userId, userId), eq(balances.kind, 'package'), inArray(balances.status, ['active', 'refunding'])))
    .orderBy(desc(balances.paidAt))
    .limit(100);
}

/** The open package balances a trainer sold or a user bought (an account that leaves refunds them all). */
export async function openBalanceIdsOf(db: Q, who: { role: 'user' | 'trainer'; id: string }) {
  const owner = who.role === 'trainer' ? sql`trainer_id = ${who.id}` : sql`user_id = ${who.id}`;
  const result = await db.execute(
    sql`select id from package_balances where ${owner} and kind = 'package' and status in ('active', 'refunding') order by id limit 500`,
  );
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** A trainer's price per session in cents (null: none set; undefined: no such trainer). */
export async function trainerPriceOf(db: Q, trainerId: string): Promise<number | null | undefined> {
  const [row] = await db
    .select({ priceCents: accounts.priceCents })
    .from(accounts)
    .where(and(eq(accounts.id, trainerId), eq(accounts.role, 'trainer')))
    .limit(1);
  return row ? row.priceCents : undefined;
}

/** 'First Last' of an account. */
export async function trainerNameOf(db: Q, trainerId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ firstName: accounts.firstName, lastName: accounts.lastName })
    .from(accounts)
    .where(eq(accounts.id, trainerId))
    .limit(1);
  return row ? `${row.firstName} ${row.lastName}` : undefined;
}

/** The ledger entries of these balances' accounts, oldest first, with the start of the session each concerns. */
export async function balanceEntries(db: Q, balanceIds: string[]) {
  if (!balanceIds.length) return [];
  const accountsOf = balanceIds.map((id) => `balance:${id}`);
  const result = await db.execute(sql`
    select substr(e.account, 9) as balance_id, t.kind, t.created_at, e.amount_cents::text as cents, b.starts_at
    from ledger_entries e
    join ledger_transactions t on t.id = e.transaction_id
    left join bookings b on b.id = t.booking_id
    where e.account = any(${`{${accountsOf.join(',')}}`}::text[])
    order by t.created_at, e.id
    limit 1000`);
  return rowsOf<{ balance_id: string; kind: string; created_at: string | Date; cents: string; starts_at: string | Date | null }>(
    result,
  ).map((r) => ({
    balanceId: r.balance_id,
    kind: r.kind,
    at: new Date(r.created_at),
    cents: Number(r.cents),
    startsAt: r.starts_at ? new Date(r.starts_at) : null,
  }));
}

export async function findBalanceByCapture(db: Q, provider: string, captureId: string): Promise<BalanceRow | undefined> {
  const [row] = await db
    .select()
    .from(balances)
    .where(and(eq(balances.provider, provider as 'paypal' | 'demo'), eq(balances.captureId, captureId)))
    .limit(1);
  return row;
}

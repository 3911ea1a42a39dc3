import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PushKind } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';

type Q = Db | Tx;

export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Keeps a device's subscription: a known endpoint is updated (keys, kinds, and the account: a shared
 * browser signed in by someone else is theirs now), a new one added; an account's oldest devices go
 * beyond `max`.
 */
export async function upsertSubscription(
  tx: Tx,
  s: { accountId: string; endpoint: string; p256dh: string; auth: string; expiresAt: Date | null; kinds: PushKind[]; now: Date },
  max: number,
): Promise<SubscriptionRow> {
  const [row] = await tx
    .insert(pushSubscriptions)
    .values({
      accountId: s.accountId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      expiresAt: s.expiresAt,
      kinds: s.kinds,
      createdAt: s.now,
      updatedAt: s.now,
    })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        accountId: s.accountId,
        p256dh: s.p256dh,
        auth: s.auth,
        expiresAt: s.expiresAt,
        kinds: s.kinds,
        updatedAt: s.now,
      },
    })
    .returning();
  const extra = await tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.accountId, s.accountId))
    .orderBy(desc(pushSubscriptions.updatedAt), desc(pushSubscriptions.id))
    .offset(max);
  if (extra.length)
    await tx.delete(pushSubscriptions).where(
      inArray(
        pushSubscriptions.id,
        extra.map((e) => e.id),
      ),
    );
  return row;
}

export const listSubscriptions = (db: Q, accountId: string) =>
  db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.accountId, accountId))
    .orderBy(desc(pushSubscriptions.createdAt));

export async function deleteSubscription(db: Q, accountId: string, endpoint: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.endpoint, endpoint)));
}

export async function findSubscription(db: Q, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row;
}

/** A subscription the push service says is gone (404, 410), or that expired. */
export async function removeSubscription(db: Q, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/**
 * One delivery job per device of `accountId` that wants `kind`, in one statement (inside the caller's
 * transaction when given one): nothing is written for someone without such a device. Answers the jobs' ids.
 */
export async function enqueueDeliveries(
  q: Q,
  d: { accountId: string; kind: PushKind; jobKind: string; runAt: Date; notice: Record<string, unknown> },
): Promise<number[]> {
  const result = await q.execute(sql`
    insert into jobs (kind, run_at, payload)
    select ${d.jobKind}, ${d.runAt.toISOString()}::timestamptz,
      jsonb_build_object('subscriptionId', p.id, 'notice', ${JSON.stringify(d.notice)}::jsonb)
    from push_subscriptions p
    where p.account_id = ${d.accountId}::uuid and ${d.kind} = any(p.kinds)
    returning id`);
  return (result as unknown as { rows: Array<{ id: number | string }> }).rows.map((r) => Number(r.id));
}

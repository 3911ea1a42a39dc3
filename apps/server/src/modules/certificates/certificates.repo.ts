import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { CertificateStatus } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { accounts, certificates } from '../../db/schema';

type Q = Db | Tx;
export type CertificateRow = typeof certificates.$inferSelect;

/** The certificate's trainer row locked, so two uploads do not both pass the pending limit. */
export async function lockTrainer(tx: Tx, trainerId: string): Promise<void> {
  await tx.execute(sql`select id from accounts where id = ${trainerId} for update`);
}

export async function countPending(q: Q, trainerId: string): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(certificates)
    .where(and(eq(certificates.trainerId, trainerId), eq(certificates.status, 'pending')));
  return Number(row?.n ?? 0);
}

export async function insertCertificate(
  tx: Tx,
  v: { trainerId: string; issuer: string; expiresOn: string; fileKey: string; mime: string; bytes: number; at: Date },
): Promise<CertificateRow> {
  const [row] = await tx
    .insert(certificates)
    .values({
      trainerId: v.trainerId,
      issuer: v.issuer,
      expiresOn: v.expiresOn,
      fileKey: v.fileKey,
      mime: v.mime,
      bytes: v.bytes,
      status: 'pending',
      createdAt: v.at,
    })
    .returning();
  return row;
}

/** The trainer's own, newest first. */
export function certificatesOf(q: Q, trainerId: string) {
  return q
    .select()
    .from(certificates)
    .where(eq(certificates.trainerId, trainerId))
    .orderBy(desc(certificates.createdAt), desc(certificates.id))
    .limit(200);
}

/** Every file of a trainer's certificates (the purge of a deleted trainer's). */
export async function fileKeysOf(q: Q, trainerId: string): Promise<string[]> {
  const rows = await q.select({ fileKey: certificates.fileKey }).from(certificates).where(eq(certificates.trainerId, trainerId));
  return rows.map((r) => r.fileKey);
}

/** A trainer's certificates deleted (their files removed before). */
export async function deleteCertificatesOf(tx: Tx, trainerId: string): Promise<void> {
  await tx.delete(certificates).where(eq(certificates.trainerId, trainerId));
}

export async function findCertificate(q: Q, id: string): Promise<CertificateRow | undefined> {
  const [row] = await q.select().from(certificates).where(eq(certificates.id, id)).limit(1);
  return row;
}

export async function findCertificateForUpdate(tx: Tx, id: string): Promise<CertificateRow | undefined> {
  const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).limit(1).for('update');
  return row;
}

const trainerColumns = {
  trainerName: sql<string>`trim(coalesce(${accounts.firstName}, '') || ' ' || coalesce(${accounts.lastName}, ''))`,
  trainerEmail: accounts.email,
};

/** The operators' queue: pending ones oldest first, the others newest first; 100 at most. */
export function consoleCertificates(q: Q, status?: CertificateStatus) {
  const order =
    status === 'pending'
      ? [asc(certificates.createdAt), asc(certificates.id)]
      : [desc(certificates.createdAt), desc(certificates.id)];
  return q
    .select({ certificate: certificates, ...trainerColumns })
    .from(certificates)
    .innerJoin(accounts, eq(accounts.id, certificates.trainerId))
    .where(status ? eq(certificates.status, status) : undefined)
    .orderBy(...order)
    .limit(100);
}

export async function consoleCertificate(q: Q, id: string) {
  const [row] = await q
    .select({ certificate: certificates, ...trainerColumns })
    .from(certificates)
    .innerJoin(accounts, eq(accounts.id, certificates.trainerId))
    .where(eq(certificates.id, id))
    .limit(1);
  return row;
}

export async function decide(
  tx: Tx,
  id: string,
  v: { status: 'approved' | 'rejected'; at: Date; operatorId: string; reason: string | null },
): Promise<CertificateRow | undefined> {
  const [row] = await tx
    .update(certificates)
    .set({ status: v.status, decidedAt: v.at, decidedBy: v.operatorId, decisionReason: v.reason })
    .where(and(eq(certificates.id, id), eq(certificates.status, 'pending')))
    .returning();
  return row;
}

/**
 * Sets the trainer's verified_until to the last day of their latest approved certificate that has
 * not expired on `today` (YYYY-MM-DD), or null (docs/product.md#verified-coaches); answers before and after.
 */
export async function recomputeVerifiedUntil(
  tx: Tx,
  trainerId: string,
  today: string,
): Promise<{ before: string | null; after: string | null }> {
  const [current] = await tx
    .select({ verifiedUntil: accounts.verifiedUntil })
    .from(accounts)
    .where(eq(accounts.id, trainerId))
    .for('update');
  const [latest] = await tx
    .select({ until: sql<string | null>`max(${certificates.expiresOn})::text` })
    .from(certificates)
    .where(
      and(
        eq(certificates.trainerId, trainerId),
        eq(certificates.status, 'approved'),
        sql`${certificates.expiresOn} >= ${today}::date`,
      ),
    );
  const before = current?.verifiedUntil ?? null;
  const after = latest?.until ?? null;
  // written only when it changes: the accounts trigger announces it, and cached answers drop
  if (before !== after) await tx.update(accounts).set({ verifiedUntil: after }).where(eq(accounts.id, trainerId));
  return { before, after };
}

export async function verifiedUntilOf(q: Q, trainerId: string): Promise<string | null> {
  const [row] = await q.select({ verifiedUntil: accounts.verifiedUntil }).from(accounts).where(eq(accounts.id, trainerId));
  return row?.verifiedUntil ?? null;
}

/** Marks the reminder sent, once: answers false when it was already (or the certificate is no longer approved). */
export async function markReminded(tx: Tx, id: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(certificates)
    .set({ remindedAt: at })
    .where(and(eq(certificates.id, id), eq(certificates.status, 'approved'), sql`${certificates.remindedAt} is null`))
    .returning({ id: certificates.id });
  return rows.length > 0;
}

/** Whom a mail about a certificate goes to: the trainer's address and first name (null when deleted). */
export async function trainerContact(q: Q, trainerId: string) {
  const [row] = await q
    .select({ email: accounts.email, firstName: accounts.firstName, deletedAt: accounts.deletedAt })
    .from(accounts)
    .where(eq(accounts.id, trainerId));
  return row && !row.deletedAt ? { email: row.email, firstName: row.firstName ?? '' } : null;
}

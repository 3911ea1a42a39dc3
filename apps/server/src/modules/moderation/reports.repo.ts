import { and, eq, sql } from 'drizzle-orm';
import type { ReportKind, ReportReason, ReportStatus } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { accounts, auditLog, messages, reports, reviews } from '../../db/schema';

type Q = Db | Tx;

/**
 * What a report is about, as the reporter may see it (docs/product.md#reports-and-moderation),
 * locked for the transaction so reports and decisions of one item take turns. `subjectId`: whose
 * content it is; `parties`: who may see it (a message's two people; empty: everyone).
 */
type Item = { subjectId: string; hidden: boolean; parties: string[]; listed: boolean };

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function lockItem(tx: Tx, kind: ReportKind, id: string): Promise<Item | undefined> {
  if (kind === 'review') {
    // its trainer's row first, as a new review and a rating recompute lock it, so the two never wait on each other
    await tx.execute(
      sql`select a.id from accounts a join reviews r on r.trainer_id = a.id where r.id = ${id}::uuid for update of a`,
    );
    const [row] = rowsOf<{ userId: string; hidden: boolean }>(
      await tx.execute(sql`select user_id::text as "userId", hidden_at is not null as "hidden"
        from reviews where id = ${id}::uuid for update`),
    );
    return row && { subjectId: row.userId, hidden: row.hidden, parties: [], listed: true };
  }
  if (kind === 'message') {
    const [row] = rowsOf<{ userId: string; trainerId: string; senderRole: string; hidden: boolean }>(
      await tx.execute(sql`select user_id::text as "userId", trainer_id::text as "trainerId", sender_role as "senderRole",
        hidden_at is not null as "hidden" from messages where id = ${id}::uuid for update`),
    );
    return (
      row && {
        subjectId: row.senderRole === 'user' ? row.userId : row.trainerId,
        hidden: row.hidden,
        parties: [row.userId, row.trainerId],
        listed: true,
      }
    );
  }
  // a profile: a trainer's account not deleted; `listed` when anyone may see it (verified, not suspended)
  const [row] = rowsOf<{ id: string; hidden: boolean; listed: boolean }>(
    await tx.execute(sql`select id::text as "id", profile_hidden_at is not null as "hidden",
        (email_verified_at is not null and suspended_at is null) as "listed"
      from accounts where id = ${id}::uuid and role = 'trainer' and deleted_at is null for update`),
  );
  return row && { subjectId: row.id, hidden: row.hidden, parties: [], listed: row.listed };
}

/** A message or a profile hidden (`at`) or shown again (null); reviews go through the reviews module (their rating). */
export async function setHidden(tx: Tx, kind: 'message' | 'profile', id: string, at: Date | null) {
  if (kind === 'message') await tx.update(messages).set({ hiddenAt: at }).where(eq(messages.id, id));
  else await tx.update(accounts).set({ profileHiddenAt: at }).where(eq(accounts.id, id));
}

/** The new report's id, or nothing when the reporter already reported the item. */
export async function insertReport(
  tx: Tx,
  values: {
    reporterId: string;
    kind: ReportKind;
    itemId: string;
    subjectId: string;
    reason: ReportReason;
    note: string;
    at: Date;
  },
): Promise<string | undefined> {
  const [row] = await tx
    .insert(reports)
    .values({
      reporterId: values.reporterId,
      kind: values.kind,
      itemId: values.itemId,
      subjectId: values.subjectId,
      reason: values.reason,
      note: values.note,
      createdAt: values.at,
      status: 'open',
    })
    .onConflictDoNothing()
    .returning({ id: reports.id });
  return row?.id;
}

/**
 * How many different people have an open report of the item: reports no operator has decided yet
 * (a decision closes every open report of the item), so those made before an operator looked do not count.
 */
export async function countOpenReporters(q: Q, kind: ReportKind, itemId: string): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(distinct ${reports.reporterId})::int` })
    .from(reports)
    .where(and(eq(reports.kind, kind), eq(reports.itemId, itemId), eq(reports.status, 'open')));
  return Number(row?.n ?? 0);
}

/** A report by id; `lock`: for the decision's transaction (after its item's lock). */
export async function findReport(tx: Tx, id: string, lock = false) {
  const [row] = rowsOf<{ id: string; kind: ReportKind; itemId: string; status: ReportStatus }>(
    await tx.execute(sql`select id::text as "id", kind, item_id::text as "itemId", status from reports
      where id = ${id}::uuid ${lock ? sql`for update` : sql``}`),
  );
  return row;
}

/** Closes every open report of the item with the decision; answers their reporters. */
export async function closeOpenReports(
  tx: Tx,
  d: { kind: ReportKind; itemId: string; status: Exclude<ReportStatus, 'open'>; at: Date; operatorId: string; reason: string },
) {
  return tx
    .update(reports)
    .set({ status: d.status, decidedAt: d.at, decidedBy: d.operatorId, decisionReason: d.reason })
    .where(and(eq(reports.kind, d.kind), eq(reports.itemId, d.itemId), eq(reports.status, 'open')))
    .returning({ id: reports.id, reporterId: reports.reporterId });
}

/**
 * Whether the item's visibility was last set by three reports rather than by an operator: the
 * latest moderation entry of the audit log about it is `report.auto-hide`.
 */
export async function lastHiddenByReports(tx: Tx, kind: ReportKind, itemId: string): Promise<boolean> {
  const [row] = await tx
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.targetKind, kind), eq(auditLog.targetId, itemId), sql`${auditLog.action} like 'report.%'`))
    // at the same instant an operator's entry came after the automatic one
    .orderBy(sql`${auditLog.at} desc, (${auditLog.action} = 'report.auto-hide')`)
    .limit(1);
  return row?.action === 'report.auto-hide';
}

/** Whom to tell about a decision: the reporters' addresses and names, deleted accounts left out. */
export async function reportersToTell(q: Q, ids: string[]) {
  if (!ids.length) return [];
  const rows = rowsOf<{ email: string; firstName: string }>(
    await q.execute(sql`select email, first_name as "firstName" from accounts
      where id = any(${`{${ids.join(',')}}`}::uuid[]) and deleted_at is null`),
  );
  return rows;
}

/** One report as the console shows it, with the item as it reads now. */
type ReportRow = {
  id: string;
  kind: ReportKind;
  itemId: string;
  reason: ReportReason;
  note: string;
  status: ReportStatus;
  createdAt: string;
  reporterId: string;
  reporterName: string;
  subjectId: string;
  subjectName: string;
  itemText: string;
  itemRating: number | null;
  itemHidden: boolean;
  itemReports: number;
  decidedAt: string | null;
  decisionReason: string | null;
};

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Reports filtered by id, status or subject, oldest first, `limit` at most. */
export async function findReports(
  q: Q,
  f: { id?: string; status?: ReportStatus; subjectId?: string; limit: number },
): Promise<ReportRow[]> {
  const where = [sql`true`];
  if (f.id) where.push(sql`r.id = ${f.id}::uuid`);
  if (f.status) where.push(sql`r.status = ${f.status}`);
  if (f.subjectId) where.push(sql`r.subject_id = ${f.subjectId}::uuid`);
  const result = await q.execute(sql`
    select r.id::text as "id", r.kind, r.item_id::text as "itemId", r.reason, r.note, r.status,
      ${iso('r.created_at')} as "createdAt",
      r.reporter_id::text as "reporterId", trim(rp.first_name || ' ' || rp.last_name) as "reporterName",
      r.subject_id::text as "subjectId", trim(sj.first_name || ' ' || sj.last_name) as "subjectName",
      coalesce(case r.kind when 'review' then rv.comment when 'message' then m.body
        else trim(p.title || E'\\n' || p.description) end, '') as "itemText",
      case when r.kind = 'review' then rv.rating::int end as "itemRating",
      coalesce(case r.kind when 'review' then rv.hidden_at is not null when 'message' then m.hidden_at is not null
        else p.profile_hidden_at is not null end, false) as "itemHidden",
      (select count(*)::int from reports o where o.kind = r.kind and o.item_id = r.item_id) as "itemReports",
      case when r.decided_at is null then null else ${iso('r.decided_at')} end as "decidedAt",
      r.decision_reason as "decisionReason"
    from reports r
    join accounts rp on rp.id = r.reporter_id
    join accounts sj on sj.id = r.subject_id
    left join ${reviews} rv on r.kind = 'review' and rv.id = r.item_id
    left join ${messages} m on r.kind = 'message' and m.id = r.item_id
    left join ${accounts} p on r.kind = 'profile' and p.id = r.item_id
    where ${sql.join(where, sql` and `)}
    order by r.created_at, r.id
    limit ${f.limit}`);
  return rowsOf<ReportRow>(result).map((r) => ({
    ...r,
    itemRating: r.itemRating === null ? null : Number(r.itemRating),
    itemReports: Number(r.itemReports),
  }));
}

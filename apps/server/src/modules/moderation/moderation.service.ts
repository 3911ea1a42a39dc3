import type { z } from 'zod';
import {
  isId,
  REPORT_MSG,
  REPORTS_TO_HIDE,
  type ReportKind,
  type ReportStatus,
  type TConsoleReport,
  type ZCreateReportRequest,
} from '@spotter/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { writeAudit } from '../console';
import type { Mailer } from '../mail';
import { setReviewHidden } from '../reviews';
import { reportOutcomeMail } from './report-outcome-mail';
import * as repo from './reports.repo';

export type ModerationDeps = { db: Db; now: () => Date; mailer: Mailer };

/** The most reports one list answers. */
const REPORTS_MAX = 100;

/** Hides or shows an item in the caller's transaction; a review's trainer's rating is recomputed with it. */
async function setItemHidden(tx: Tx, kind: ReportKind, itemId: string, at: Date | null) {
  if (kind === 'review') await setReviewHidden(tx, itemId, at);
  else await repo.setHidden(tx, kind, itemId, at);
}

const toConsoleReport = (r: Awaited<ReturnType<typeof repo.findReports>>[number]): TConsoleReport => ({
  _id: r.id,
  kind: r.kind,
  itemId: r.itemId,
  reason: r.reason,
  note: r.note,
  status: r.status,
  createdAt: r.createdAt,
  reporterId: r.reporterId,
  reporterName: r.reporterName,
  subjectId: r.subjectId,
  subjectName: r.subjectName,
  itemText: r.itemText,
  itemRating: r.itemRating,
  itemHidden: r.itemHidden,
  itemReports: r.itemReports,
  decidedAt: r.decidedAt,
  decisionReason: r.decisionReason,
});

/**
 * Reports as the console lists them, oldest first (the queue), 100 at most: by status, or about one
 * person's content (`subjectId`, the person page). An id that is no id names nobody.
 */
export async function listReports(db: Db, filter: { status?: ReportStatus; subjectId?: string } = {}): Promise<TConsoleReport[]> {
  if (filter.subjectId !== undefined && !isId(filter.subjectId)) return [];
  const rows = await repo.findReports(db, { ...filter, limit: REPORTS_MAX });
  return rows.map(toConsoleReport);
}

/**
 * POST /api/reports (docs/product.md#reports-and-moderation): what the caller may see and did not
 * write, once per person and item. When three different people have an open report of it (one no
 * operator has decided yet), the item is hidden until an operator looks, in the same transaction,
 * written to the audit log with no operator.
 */
export async function reportItem(
  deps: Pick<ModerationDeps, 'db' | 'now'>,
  caller: Caller,
  input: z.output<typeof ZCreateReportRequest>,
): Promise<{ id: string }> {
  // anything that is no id names no item (the uuid column would throw)
  if (!isId(input.id)) throw new AppError('NOT_FOUND', REPORT_MSG.itemNotFound);
  const itemId = input.id.toLowerCase();
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const item = await repo.lockItem(tx, input.kind, itemId);
    // a hidden item is its author's alone, and a message is its two people's
    const visible =
      item &&
      item.listed &&
      (!item.hidden || item.subjectId === caller.id) &&
      (item.parties.length === 0 || item.parties.includes(caller.id));
    if (!item || !visible) throw new AppError('NOT_FOUND', REPORT_MSG.itemNotFound);
    if (item.subjectId === caller.id) throw new AppError('VALIDATION_FAILED', REPORT_MSG.own, { id: REPORT_MSG.own });
    const id = await repo.insertReport(tx, {
      reporterId: caller.id,
      kind: input.kind,
      itemId,
      subjectId: item.subjectId,
      reason: input.reason,
      note: input.note,
      at,
    });
    if (!id) throw new AppError('ALREADY_REPORTED', REPORT_MSG.already);
    // three people's open reports hide it: those an operator decided (restore, dismiss) no longer count,
    // so three new ones after a decision hide it again (docs/product.md#reports-and-moderation)
    if (!item.hidden && (await repo.countOpenReporters(tx, input.kind, itemId)) >= REPORTS_TO_HIDE) {
      await setItemHidden(tx, input.kind, itemId, at);
      await writeAudit(tx, {
        at,
        operatorId: null,
        action: 'report.auto-hide',
        targetKind: input.kind,
        targetId: itemId,
        reason: `reported by ${REPORTS_TO_HIDE} people`,
        before: { hidden: false },
        after: { hidden: true },
      });
    }
    return { id };
  });
}

export type Decision = 'hide' | 'restore' | 'dismiss';
const STATUS_OF: Record<Decision, Exclude<ReportStatus, 'open'>> = {
  hide: 'hidden',
  restore: 'restored',
  dismiss: 'dismissed',
};
const MESSAGE_OF: Record<Decision, string> = {
  hide: REPORT_MSG.hidden,
  restore: REPORT_MSG.restored,
  dismiss: REPORT_MSG.dismissed,
};

/**
 * POST /api/console/reports/:id/hide|restore|dismiss: decides the report's item and closes every
 * open report of it with the decision, with an audit entry, in one transaction. Hide hides, restore
 * shows again, dismiss leaves the item as it is, except that an item hidden by reports is shown again
 * (an operator looked). Each reporter whose report closed is then told by mail; a failed mail is
 * logged, the decision stands.
 */
export async function decideReport(
  deps: ModerationDeps,
  operatorId: string,
  reportId: string,
  decision: Decision,
  reason: string,
  log?: FastifyBaseLogger,
): Promise<{ report: TConsoleReport; message: string }> {
  if (!isId(reportId)) throw new AppError('NOT_FOUND', REPORT_MSG.notFound);
  const at = deps.now();
  const status = STATUS_OF[decision];
  const decided = await deps.db.transaction(async (tx) => {
    const found = await repo.findReport(tx, reportId);
    if (!found) throw new AppError('NOT_FOUND', REPORT_MSG.notFound);
    // the item first, then the report, as a report of it takes them: two decisions of one item take turns
    const item = await repo.lockItem(tx, found.kind, found.itemId);
    const report = (await repo.findReport(tx, reportId, true))!;
    if (report.status !== 'open') throw new AppError('CONFLICT', REPORT_MSG.closed);
    const before = item?.hidden ?? false;
    let after = before;
    if (item) {
      if (decision === 'hide') after = true;
      else if (decision === 'restore') after = false;
      else if (before && (await repo.lastHiddenByReports(tx, report.kind, report.itemId))) after = false;
      if (after !== before) await setItemHidden(tx, report.kind, report.itemId, after ? at : null);
    }
    const closed = await repo.closeOpenReports(tx, {
      kind: report.kind,
      itemId: report.itemId,
      status,
      at,
      operatorId,
      reason,
    });
    await writeAudit(tx, {
      at,
      operatorId,
      action: `report.${decision}`,
      targetKind: report.kind,
      targetId: report.itemId,
      reason,
      before: { hidden: before, openReports: closed.length },
      after: { hidden: after, status },
    });
    return { kind: report.kind, reporterIds: closed.map((c) => c.reporterId) };
  });
  // after the commit: the decision stands whatever the mail does
  for (const to of await repo.reportersToTell(deps.db, decided.reporterIds)) {
    try {
      await deps.mailer.send(reportOutcomeMail({ to: to.email, firstName: to.firstName, kind: decided.kind, outcome: status }));
    } catch (err) {
      log?.error({ err, reportId }, 'report outcome mail failed');
    }
  }
  const [report] = await repo.findReports(deps.db, { id: reportId, limit: 1 });
  return { report: toConsoleReport(report!), message: MESSAGE_OF[decision] };
}

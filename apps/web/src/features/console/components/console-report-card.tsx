import type { RefObject } from 'react';
import { Link } from 'react-router';
import { REPORT_REASON_WORDS, REPORTS_TO_HIDE, type ReportKind, type ReportStatus, type TConsoleReport } from '@spotter/shared';
import { consoleApi, type ReportDecision } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { Badge, When } from './console-ui';
import { ReasonAction } from './reason-action';

const KIND_WORDS: Record<ReportKind, string> = { review: 'Review', message: 'Message', profile: 'Profile' };

export const REPORT_STATUS_WORDS: Record<ReportStatus, string> = {
  open: 'Open',
  hidden: 'Hidden',
  restored: 'Restored',
  dismissed: 'Dismissed',
};

const DECISIONS: Record<ReportDecision, { label: string; title: string; description: string; confirm: string }> = {
  hide: {
    label: 'Hide',
    title: 'Hide it?',
    description: 'Only its author and operators will see it. Every open report of it closes.',
    confirm: 'Hide it',
  },
  restore: {
    label: 'Restore',
    title: 'Restore it?',
    description: 'Everyone will see it again. Every open report of it closes.',
    confirm: 'Restore it',
  },
  dismiss: {
    label: 'Dismiss',
    title: 'Dismiss the report?',
    description: 'It stays as it is. Every open report of it closes.',
    confirm: 'Dismiss the report',
  },
};

const linkClasses = 'font-semibold text-ink underline underline-offset-4';

type ReportCardProps = {
  report: TConsoleReport;
  onDecided: (message: string) => void;
  /** Where the focus goes after a decision: the message saying what happened. */
  focusAfter: RefObject<HTMLElement | null>;
  headingLevel?: 2 | 3;
};

/**
 * One report as operators decide it: what was reported and why, by whom, about whom, how many people
 * reported it, whether it is hidden, and (while open) hide, restore or dismiss, each with a reason.
 */
export function ReportCard({ report, onDecided, focusAfter, headingLevel = 2 }: ReportCardProps) {
  const Heading = `h${headingLevel}` as const;
  const headingId = `report-${report._id}`;
  const kind = KIND_WORDS[report.kind];
  const isOpen = report.status === 'open';
  const decisions: ReportDecision[] = !isOpen ? [] : report.itemHidden ? ['hide', 'restore'] : ['hide', 'dismiss'];
  /** Hiding what is hidden already (automatically) keeps it hidden. */
  const keepsHidden = (decision: ReportDecision) => decision === 'hide' && report.itemHidden;

  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-line bg-canvas p-4 text-sm sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Heading id={headingId} className="font-display text-lg font-bold text-ink">
          {report.kind === 'message' ? `${kind} from ${report.subjectName}` : `${kind} of ${report.subjectName}`}
        </Heading>
        <div className="flex flex-wrap gap-2">
          {!isOpen && <Badge tone="neutral">{REPORT_STATUS_WORDS[report.status]}</Badge>}
          {report.itemHidden ? <Badge tone="danger">Hidden</Badge> : <Badge tone="success">Visible</Badge>}
        </div>
      </div>
      {isOpen && report.itemHidden && (
        <p className="mt-2 font-medium text-warning-ink">Hidden automatically after {REPORTS_TO_HIDE} reports</p>
      )}

      <figure className="mt-3 rounded-xl bg-surface p-3">
        <figcaption className="text-xs font-semibold text-muted uppercase">What was reported</figcaption>
        {report.itemRating !== null && <p className="mt-1 font-semibold text-ink">{report.itemRating} of 5 stars</p>}
        <blockquote className="mt-1 whitespace-pre-wrap break-words text-ink">{report.itemText || 'No text'}</blockquote>
      </figure>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
        <dt className="text-muted">Reason</dt>
        <dd className="font-medium text-ink">{REPORT_REASON_WORDS[report.reason]}</dd>
        {report.note && (
          <>
            <dt className="text-muted">Note</dt>
            <dd className="whitespace-pre-wrap break-words">{report.note}</dd>
          </>
        )}
        <dt className="text-muted">Reported by</dt>
        <dd>
          <Link to={paths.console.person.getHref(report.reporterId)} className={linkClasses}>
            {report.reporterName}
          </Link>
        </dd>
        <dt className="text-muted">Whose it is</dt>
        <dd>
          <Link to={paths.console.person.getHref(report.subjectId)} className={linkClasses}>
            {report.subjectName}
          </Link>
        </dd>
        <dt className="text-muted">Reported</dt>
        <dd>
          <When at={report.createdAt} />
        </dd>
        <dt className="text-muted">Reports of it</dt>
        <dd>{report.itemReports === 1 ? '1 person reported it' : `${report.itemReports} people reported it`}</dd>
        {report.decidedAt && (
          <>
            <dt className="text-muted">Decided</dt>
            <dd>
              <When at={report.decidedAt} />
              {report.decisionReason && `: ${report.decisionReason}`}
            </dd>
          </>
        )}
      </dl>

      {decisions.length > 0 && (
        <div className="mt-4 flex flex-wrap gap-2">
          {decisions.map((decision) => (
            <ReasonAction
              key={decision}
              label={
                <>
                  {keepsHidden(decision) ? 'Keep hidden' : DECISIONS[decision].label}
                  <span className="sr-only">{`: ${kind.toLowerCase()} of ${report.subjectName}`}</span>
                </>
              }
              title={keepsHidden(decision) ? 'Keep it hidden?' : DECISIONS[decision].title}
              description={DECISIONS[decision].description}
              confirmLabel={keepsHidden(decision) ? 'Keep it hidden' : DECISIONS[decision].confirm}
              danger={decision === 'hide'}
              act={(reason) => consoleApi.decideReport(report._id, decision, { reason })}
              onDone={onDecided}
              focusAfter={focusAfter}
            />
          ))}
        </div>
      )}
    </article>
  );
}

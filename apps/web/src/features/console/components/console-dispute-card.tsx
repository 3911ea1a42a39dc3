import type { RefObject } from 'react';
import { Link } from 'react-router';
import { DISPUTE_REASON_WORDS, type DisputeOutcome, type DisputeRuleId, type TConsoleDispute } from '@spotter/shared';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { Badge, When } from './console-ui';
import { DecideDispute } from './decide-dispute';

const OUTCOME_WORDS: Record<DisputeOutcome, string> = {
  'refund-full': 'Full refund',
  'refund-part': 'Part refund',
  'no-refund': 'No refund',
  closed: 'Closed',
};

const RULE_WORDS: Record<Exclude<DisputeRuleId, 'operator'>, string> = {
  'too-late': 'too late',
  'refunded-already': 'refunded already',
  'trainer-cancelled': 'the trainer cancelled',
};

const linkClasses = 'font-semibold text-ink underline underline-offset-4';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type DisputeCardProps = {
  dispute: TConsoleDispute;
  onDecided: (message: string) => void;
  /** Where the focus goes after a decision: the message saying what happened. */
  focusAfter: RefObject<HTMLElement | null>;
};

/**
 * One dispute as operators decide it: the session, who disputed it and whose it was, what went wrong
 * in the user's words, what was paid and what is left to refund, and (while open) Decide…; once
 * decided, the outcome, what was refunded, the rule that decided it (when not an operator) and why.
 */
export function DisputeCard({ dispute, onDecided, focusAfter }: DisputeCardProps) {
  const headingId = `dispute-${dispute._id}`;
  const isOpen = dispute.status === 'open';
  const rule = dispute.rule && dispute.rule !== 'operator' ? RULE_WORDS[dispute.rule] : null;

  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-line bg-canvas p-4 text-sm sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="font-display text-lg font-bold break-words text-ink">
          {`${dispute.userName}’s session with ${dispute.trainerName}`}
        </h2>
        {isOpen ? (
          <Badge tone="warning">Open</Badge>
        ) : (
          <Badge tone="neutral">{dispute.outcome ? OUTCOME_WORDS[dispute.outcome] : 'Decided'}</Badge>
        )}
      </div>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
        <dt className="text-muted">Session</dt>
        <dd>
          <When at={dispute.startsAt} /> · {capitalized(dispute.bookingStatus)}
        </dd>
        <dt className="text-muted">User</dt>
        <dd>
          <Link to={paths.console.person.getHref(dispute.userId)} className={linkClasses}>
            {dispute.userName}
          </Link>
        </dd>
        <dt className="text-muted">Trainer</dt>
        <dd>
          <Link to={paths.console.person.getHref(dispute.trainerId)} className={linkClasses}>
            {dispute.trainerName}
          </Link>
        </dd>
        <dt className="text-muted">What went wrong</dt>
        <dd className="font-medium text-ink">{DISPUTE_REASON_WORDS[dispute.reason]}</dd>
        {dispute.note && (
          <>
            <dt className="text-muted">Note</dt>
            <dd className="whitespace-pre-wrap break-words">{dispute.note}</dd>
          </>
        )}
        <dt className="text-muted">Disputed</dt>
        <dd>
          <When at={dispute.createdAt} />
        </dd>
        <dt className="text-muted">Paid</dt>
        <dd>{formatMoney(dispute.paid)}</dd>
        <dt className="text-muted">Refundable</dt>
        <dd>{formatMoney(dispute.refundable)}</dd>
        {!isOpen && (
          <>
            <dt className="text-muted">Outcome</dt>
            <dd className="font-medium text-ink">
              {dispute.outcome ? OUTCOME_WORDS[dispute.outcome] : 'Decided'}
              {dispute.refunded !== null && dispute.refunded > 0 && `: ${formatMoney(dispute.refunded)} refunded`}
            </dd>
            <dt className="text-muted">Decided</dt>
            <dd>
              {dispute.decidedAt && <When at={dispute.decidedAt} />}
              {rule ? ` · Decided by rule: ${rule}` : ' · By an operator'}
              {dispute.decisionReason && <span className="block whitespace-pre-wrap break-words">{dispute.decisionReason}</span>}
            </dd>
          </>
        )}
      </dl>

      {isOpen && (
        <div className="mt-4 flex flex-wrap gap-2">
          <DecideDispute dispute={dispute} onDone={onDecided} focusAfter={focusAfter} />
        </div>
      )}
    </article>
  );
}

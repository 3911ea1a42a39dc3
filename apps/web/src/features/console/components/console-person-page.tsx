import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import type { TPersonDetail, TPersonPageResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { consoleApi, useConsoleSession, type PersonAction } from '@/lib/api/console';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { ReportCard } from './console-report-card';
import {
  ActionMessage,
  Badge,
  cellClasses,
  Empty,
  fullName,
  LoadError,
  Loading,
  ROLE_WORDS,
  ScrollTable,
  StatusBadge,
  useRefreshConsole,
  When,
} from './console-ui';
import { ReasonAction } from './reason-action';

const money = (cents: number) => formatMoney(cents / 100);
const linkClasses = 'font-semibold text-ink underline underline-offset-4';

/**
 * `/console/people/:id` (docs/product.md#the-operator-console): a person's facts and status, their
 * bookings, payments and reviews, the reports against them and the audit entries about them; and
 * suspend, restore or delete, each with a reason.
 */
export function ConsolePersonPage() {
  const { token } = useConsoleSession();
  const { id = '' } = useParams();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <PersonPage key={id} token={token} id={id} />;
}

function PersonPage({ token, id }: { token: string; id: string }) {
  const page = useQuery({ queryKey: [CONSOLE_QUERY, 'person', token, id], queryFn: () => consoleApi.person(id) });
  const refresh = useRefreshConsole();
  const [message, setMessage] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const done = (text: string) => {
    setMessage(text);
    void refresh();
  };

  const back = (
    <p className="mb-4">
      <Link to={paths.console.people.getHref()} className={linkClasses}>
        Back to people
      </Link>
    </p>
  );

  if (page.isPending) {
    return (
      <ConsolePage title="Person" wide>
        {back}
        <Loading label="Loading this person…" />
      </ConsolePage>
    );
  }
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404;
    return (
      <ConsolePage title={missing ? 'No such person' : 'Person'} wide>
        {back}
        {missing ? (
          <Alert tone="error">{page.error.message}</Alert>
        ) : (
          <LoadError what="This person could not be loaded." error={page.error} onRetry={() => void page.refetch()} />
        )}
      </ConsolePage>
    );
  }

  const { person } = page.data;
  return (
    <ConsolePage title={fullName(person)} wide>
      {back}
      <ActionMessage ref={messageRef} message={message} />
      <Facts person={person} />
      <Actions person={person} onDone={done} focusAfter={messageRef} />
      <Sections data={page.data} onDone={done} focusAfter={messageRef} />
    </ConsolePage>
  );
}

function Facts({ person }: { person: TPersonDetail }) {
  const facts: Array<[string, ReactNode]> = [
    ['Status', <StatusBadge key="status" status={person.status} />],
    ['Role', ROLE_WORDS[person.role]],
    ['E-mail', `${person.email} (${person.emailVerified ? 'verified' : 'not verified'})`],
    ['Phone', person.phone || 'None given'],
    ['City', person.city || 'None given'],
    ['Joined', <When key="joined" at={person.createdAt} />],
    ['Open reports', String(person.openReports)],
  ];
  if (person.role === 'trainer') {
    facts.push(
      ['Title', person.title || 'None given'],
      ['Session price', person.priceCents === null ? 'Not set' : money(person.priceCents)],
      ['Rating', person.ratingCount === 0 ? 'No reviews' : `${person.ratingAvg.toFixed(1)} from ${person.ratingCount}`],
      ['Profile', person.profileHidden ? 'Hidden from the trainer list' : 'Listed'],
    );
  }
  return (
    <section aria-labelledby="person-facts" className="mt-4 rounded-2xl border border-line bg-canvas p-4 text-sm sm:p-5">
      <h2 id="person-facts" className="sr-only">
        Profile
      </h2>
      {person.status === 'suspended' && (
        <Alert tone="warning" isLive={false} className="mb-4">
          Suspended
          {person.suspendedAt && (
            <>
              {' '}
              on <When at={person.suspendedAt} />
            </>
          )}
          . The reason they read when they try to sign in: {person.suspensionReason ?? 'none given'}
        </Alert>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr_auto_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted">{term}</dt>
            <dd className="min-w-0 break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      {person.role === 'trainer' && person.description && (
        <p className="mt-4 whitespace-pre-wrap break-words text-ink">{person.description}</p>
      )}
    </section>
  );
}

const ACTION_WORDS: Record<PersonAction, { label: string; confirm: string; description: string; hint: string }> = {
  suspend: {
    label: 'Suspend',
    confirm: 'Suspend the account',
    description:
      'They cannot sign in, and read your reason when they try. Their sessions end, a trainer leaves the trainer list, and their upcoming paid sessions are cancelled and refunded in full.',
    hint: 'They read it when they try to sign in. It is kept in the audit log.',
  },
  restore: {
    label: 'Restore',
    confirm: 'Restore the account',
    description: 'They can sign in again, and a trainer is listed again. Cancelled sessions stay cancelled.',
    hint: 'Kept in the audit log.',
  },
  delete: {
    label: 'Delete',
    confirm: 'Delete the account',
    description:
      'This cannot be undone. They cannot sign in, their sessions end, a trainer leaves the trainer list, their upcoming paid sessions are cancelled and refunded in full, and the account is anonymised.',
    hint: 'Kept in the audit log.',
  },
};

type ActionsProps = { person: TPersonDetail; onDone: (message: string) => void; focusAfter: RefObject<HTMLElement | null> };

function Actions({ person, onDone, focusAfter }: ActionsProps) {
  const actions: PersonAction[] =
    person.status === 'deleted' ? [] : person.status === 'suspended' ? ['restore', 'delete'] : ['suspend', 'delete'];
  if (actions.length === 0) return null;
  const name = fullName(person);
  return (
    <section aria-labelledby="person-actions" className="mt-4">
      <h2 id="person-actions" className="sr-only">
        Actions
      </h2>
      <div className="flex flex-wrap gap-2">
        {actions.map((action) => {
          const words = ACTION_WORDS[action];
          return (
            <ReasonAction
              key={action}
              label={words.label}
              title={`${words.label} ${name}?`}
              description={words.description}
              confirmLabel={words.confirm}
              danger={action !== 'restore'}
              reasonHint={words.hint}
              act={(reason) => consoleApi.personAction(person._id, action, { reason })}
              onDone={onDone}
              focusAfter={focusAfter}
            />
          );
        })}
      </div>
    </section>
  );
}

function Section({ id, title, count, children }: { id: string; title: string; count: number; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="mb-3 font-display text-xl font-bold text-ink">
        {title} <span className="text-base font-normal text-muted">({count})</span>
      </h2>
      {children}
    </section>
  );
}

function Sections({ data, onDone, focusAfter }: { data: TPersonPageResponse } & Omit<ActionsProps, 'person'>) {
  const { person, bookings, payments, reviews, reports, audit } = data;
  const auditHref = `${paths.console.audit.getHref()}?${new URLSearchParams({ targetId: person._id }).toString()}`;
  return (
    <>
      <Section id="person-bookings" title="Bookings" count={bookings.length}>
        {bookings.length === 0 ? (
          <Empty>No bookings.</Empty>
        ) : (
          <ScrollTable label="Bookings" headers={['When', 'With', 'Status', 'Price']}>
            {bookings.map((booking) => (
              <tr key={booking._id}>
                <td className={cellClasses}>
                  <When at={booking.startsAt} />
                </td>
                <td className={cellClasses}>
                  <Link to={paths.console.person.getHref(booking.withId)} className={linkClasses}>
                    {booking.withName}
                  </Link>
                </td>
                <td className={cellClasses}>{booking.status}</td>
                <td className={cellClasses}>{money(booking.priceCents)}</td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section id="person-payments" title="Payments" count={payments.length}>
        {payments.length === 0 ? (
          <Empty>No payments.</Empty>
        ) : (
          <ScrollTable label="Payments" headers={['When', 'Amount', 'Refunded', 'Status']}>
            {payments.map((payment) => (
              <tr key={payment._id}>
                <td className={cellClasses}>
                  <When at={payment.createdAt} />
                </td>
                <td className={cellClasses}>{money(payment.amountCents)}</td>
                <td className={cellClasses}>{payment.refundedCents > 0 ? money(payment.refundedCents) : 'Nothing'}</td>
                <td className={cellClasses}>{payment.status}</td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section id="person-reviews" title="Reviews" count={reviews.length}>
        {reviews.length === 0 ? (
          <Empty>No reviews.</Empty>
        ) : (
          <ScrollTable label="Reviews" headers={['When', 'Whose', 'Rating', 'Comment', 'Shown']}>
            {reviews.map((review) => (
              <tr key={review._id}>
                <td className={cellClasses}>
                  <When at={review.createdAt} />
                </td>
                <td className={cellClasses}>{review.by === 'person' ? 'Written by them' : 'About them'}</td>
                <td className={cellClasses}>{`${review.rating} of 5`}</td>
                <td className={`${cellClasses} break-words whitespace-pre-wrap`}>{review.comment || 'No comment'}</td>
                <td className={cellClasses}>
                  {review.hidden ? <Badge tone="danger">Hidden</Badge> : <Badge tone="success">Visible</Badge>}
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section id="person-reports" title="Reports against them" count={reports.length}>
        {reports.length === 0 ? (
          <Empty>No reports.</Empty>
        ) : (
          <ul className="space-y-4" aria-label="Reports against them">
            {reports.map((report) => (
              <li key={report._id}>
                <ReportCard report={report} onDecided={onDone} focusAfter={focusAfter} headingLevel={3} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="person-audit" title="Audit log entries" count={audit.length}>
        {audit.length === 0 ? (
          <Empty>No operator has acted on this account.</Empty>
        ) : (
          <ScrollTable label="Audit log entries about them" headers={['When', 'Who', 'Action', 'Reason']}>
            {audit.map((entry) => (
              <tr key={entry._id}>
                <td className={cellClasses}>
                  <When at={entry.at} />
                </td>
                <td className={`${cellClasses} break-all`}>{entry.operatorEmail ?? 'Command line'}</td>
                <td className={cellClasses}>
                  <code className="text-xs">{entry.action}</code>
                </td>
                <td className={cellClasses}>{entry.reason}</td>
              </tr>
            ))}
          </ScrollTable>
        )}
        <p className="mt-3">
          <Link to={auditHref} className={linkClasses}>
            Open in the audit log
          </Link>
        </p>
      </Section>
    </>
  );
}

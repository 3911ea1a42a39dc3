import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { REPORT_STATUSES, type ReportStatus } from '@spotter/shared';
import { cn } from '@/lib/cn';
import { consoleApi, useConsoleSession } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { REPORT_STATUS_WORDS, ReportCard } from './console-report-card';
import { ActionMessage, Empty, LoadError, Loading, useRefreshConsole } from './console-ui';

const statusOf = (value: string | null): ReportStatus => REPORT_STATUSES.find((status) => status === value) ?? 'open';

const hrefOf = (status: ReportStatus) =>
  status === 'open' ? paths.console.reports.getHref() : `${paths.console.reports.getHref()}?status=${status}`;

/**
 * `/console/reports`, the moderation queue (docs/product.md#the-operator-console): open reports oldest
 * first, each decided with a reason (hide, restore or dismiss); the decided ones by status.
 */
export function ConsoleReportsPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <Reports token={token} />;
}

function Reports({ token }: { token: string }) {
  const [params] = useSearchParams();
  const status = statusOf(params.get('status'));
  const reports = useQuery({
    queryKey: [CONSOLE_QUERY, 'reports', token, status],
    queryFn: () => consoleApi.reports(status),
  });
  const refresh = useRefreshConsole();
  const [message, setMessage] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const list = reports.data?.reports ?? [];
  const words = REPORT_STATUS_WORDS[status].toLowerCase();

  return (
    <ConsolePage title="Reports" wide>
      <p className="text-muted">
        What members reported: reviews, messages and profiles. Open reports come oldest first; deciding one closes every open
        report of the same item.
      </p>
      <nav aria-label="Reports by status" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {REPORT_STATUSES.map((each) => (
            <li key={each}>
              <Link
                to={hrefOf(each)}
                aria-current={each === status ? 'page' : undefined}
                onClick={() => setMessage(null)}
                className={cn(
                  'inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-semibold',
                  each === status ? 'border-ink bg-ink text-on-ink' : 'border-line-strong bg-canvas text-ink hover:bg-surface',
                )}
              >
                {REPORT_STATUS_WORDS[each]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-4">
        <ActionMessage ref={messageRef} message={message} />
      </div>

      <div className="mt-4">
        {reports.isPending ? (
          <Loading label="Loading the reports…" />
        ) : reports.isError ? (
          <LoadError what="The reports could not be loaded." error={reports.error} onRetry={() => void reports.refetch()} />
        ) : list.length === 0 ? (
          <Empty>{`No ${words} reports.`}</Empty>
        ) : (
          <>
            <p className="mb-3 text-sm text-muted">
              {list.length === 1 ? `1 ${words} report` : `${list.length} ${words} reports`}
              {status === 'open' ? ', oldest first' : ''}
            </p>
            <ol aria-label={`${REPORT_STATUS_WORDS[status]} reports`} className="space-y-4">
              {list.map((report) => (
                <li key={report._id}>
                  <ReportCard
                    report={report}
                    focusAfter={messageRef}
                    onDecided={(text) => {
                      setMessage(text);
                      void refresh();
                    }}
                  />
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </ConsolePage>
  );
}

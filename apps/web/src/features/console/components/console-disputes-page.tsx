import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { inputClasses } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { consoleApi, useConsoleSession, type DisputeStatus } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { DisputeCard } from './console-dispute-card';
import { ActionMessage, Empty, LoadError, Loading, useRefreshConsole } from './console-ui';

const STATUSES = ['open', 'decided'] as const satisfies readonly DisputeStatus[];
const STATUS_WORDS: Record<DisputeStatus, string> = { open: 'Open', decided: 'Decided' };

const statusOf = (value: string | null): DisputeStatus => STATUSES.find((status) => status === value) ?? 'open';

/**
 * `/console/disputes`, the disputes' queue (docs/product.md#disputes): what the rules (docs/decisions/047-disputes-by-rule.md)
 * could not decide waits here for an operator, who refunds all, part or nothing, with a reason both
 * people read; the decided ones, by rule or by an operator, are kept.
 */
export function ConsoleDisputesPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <Disputes token={token} />;
}

function Disputes({ token }: { token: string }) {
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const disputes = useQuery({
    queryKey: [CONSOLE_QUERY, 'disputes', token, status],
    queryFn: () => consoleApi.disputes(status),
  });
  const refresh = useRefreshConsole();
  const [message, setMessage] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const list = disputes.data?.disputes ?? [];
  const words = STATUS_WORDS[status].toLowerCase();

  return (
    <ConsolePage title="Disputes" wide>
      <p className="text-muted">
        Sessions their users disputed that the rules could not decide. The trainer’s payout for a session waits while its dispute
        is open; both people are told by mail what you decide.
      </p>
      <div className="mt-6 max-w-xs">
        <label htmlFor="disputes-status" className="mb-1.5 block text-sm font-semibold text-ink">
          Show
        </label>
        <select
          id="disputes-status"
          value={status}
          onChange={(event) => {
            setMessage(null);
            setParams(event.target.value === 'open' ? {} : { status: event.target.value });
          }}
          className={cn(inputClasses, 'border-line-strong')}
        >
          {STATUSES.map((each) => (
            <option key={each} value={each}>
              {`${STATUS_WORDS[each]} disputes`}
            </option>
          ))}
        </select>
      </div>

      <div className="mt-4">
        <ActionMessage ref={messageRef} message={message} />
      </div>

      <div className="mt-4">
        {disputes.isPending ? (
          <Loading label="Loading the disputes…" />
        ) : disputes.isError ? (
          <LoadError what="The disputes could not be loaded." error={disputes.error} onRetry={() => void disputes.refetch()} />
        ) : list.length === 0 ? (
          <Empty>{`No ${words} disputes.`}</Empty>
        ) : (
          <>
            <p className="mb-3 text-sm text-muted">
              {list.length === 1 ? `1 ${words} dispute` : `${list.length} ${words} disputes`}
            </p>
            <ol aria-label={`${STATUS_WORDS[status]} disputes`} className="space-y-4">
              {list.map((dispute) => (
                <li key={dispute._id}>
                  <DisputeCard
                    dispute={dispute}
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

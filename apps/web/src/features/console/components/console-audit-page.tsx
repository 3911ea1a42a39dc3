import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import type { TAuditEntry } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { inputClasses, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/api-client';
import { consoleApi, useConsoleSession, type AuditFilters } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { saveFile } from '../utils/save-file';
import { useIsPhone } from '../utils/use-is-phone';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';

/** Entries a page of the log holds. */
export const AUDIT_PAGE = 50;

/** The actions the log records so far (docs/product.md#the-audit-log). */
const ACTIONS = [
  { value: 'operator.add', label: 'Operator added' },
  { value: 'operator.remove', label: 'Operator removed' },
  { value: 'operator.welcome', label: 'Welcome link used' },
  { value: 'operator.sign-in', label: 'Signed in' },
] as const;

const FILTER_KEYS = ['action', 'targetId', 'operatorId'] as const;

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const when = (at: string) => timeFormat.format(new Date(at));
const who = (entry: TAuditEntry) => entry.operatorEmail ?? (entry.operatorId ? `Operator ${entry.operatorId}` : 'Command line');
const actionLabel = (action: string) => ACTIONS.find((a) => a.value === action)?.label;
const json = (value: unknown) => (value === null || value === undefined ? 'nothing' : JSON.stringify(value, null, 2));

function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/**
 * `/console`, the audit log (docs/product.md#the-audit-log): every operator action, newest first,
 * filtered by action, target and operator (kept in the address), a page at a time, and as a CSV
 * file with the same filters.
 */
export function ConsoleAuditPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <AuditLog token={token} />;
}

function AuditLog({ token }: { token: string }) {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const isFiltered = Object.keys(filters).length > 0;
  const log = useInfiniteQuery({
    queryKey: [CONSOLE_QUERY, 'audit', token, filters],
    queryFn: ({ pageParam }) => consoleApi.audit({ ...filters, before: pageParam, limit: AUDIT_PAGE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.entries.length === AUDIT_PAGE ? last.entries.at(-1)?.at : undefined),
  });
  const exportCsv = useMutation({
    mutationFn: () => consoleApi.auditCsv(filters),
    onSuccess: ({ blob, name }) => saveFile(blob, name),
  });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const isPhone = useIsPhone();

  const apply = (next: AuditFilters) => {
    const search = new URLSearchParams();
    for (const key of FILTER_KEYS) if (next[key]) search.set(key, next[key]);
    setParams(search);
  };

  return (
    <ConsolePage title="Audit log" wide>
      <p className="text-muted">
        Every operator action, newest first: who did it, what, on whom and why, with the state before and after.
      </p>
      <Filters key={params.toString()} filters={filters} onApply={apply} />

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-muted">
          {log.isSuccess &&
            (entries.length === 1 ? '1 entry shown' : `${entries.length} entries shown`) + (isFiltered ? ' (filtered)' : '')}
        </p>
        <Button variant="outline" onClick={() => exportCsv.mutate()} isLoading={exportCsv.isPending}>
          Export CSV
        </Button>
      </div>
      <div aria-live="assertive">
        {exportCsv.isError && (
          <Alert tone="error" isLive={false} className="mt-4">
            The CSV file could not be made. {errorMessage(exportCsv.error)}
          </Alert>
        )}
      </div>

      <div className="mt-4">
        {log.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner label="Loading the audit log…" />
          </div>
        ) : log.isError && entries.length === 0 ? (
          <Alert
            tone="error"
            action={
              <Button variant="outline" onClick={() => void log.refetch()}>
                Try again
              </Button>
            }
          >
            The audit log could not be loaded. {errorMessage(log.error)}
          </Alert>
        ) : entries.length === 0 ? (
          <p className="rounded-xl border border-line bg-canvas px-4 py-8 text-center text-muted">
            {isFiltered ? 'No entries match these filters.' : 'The audit log has no entries yet.'}
          </p>
        ) : isPhone ? (
          <EntryList entries={entries} />
        ) : (
          <EntryTable entries={entries} />
        )}
      </div>

      {entries.length > 0 && (
        <div className="mt-6 flex flex-col items-center gap-3">
          {log.isFetchNextPageError && (
            <Alert tone="error" className="w-full">
              Older entries could not be loaded. {errorMessage(log.error)}
            </Alert>
          )}
          {log.hasNextPage ? (
            <Button variant="outline" onClick={() => void log.fetchNextPage()} isLoading={log.isFetchingNextPage}>
              Load older
            </Button>
          ) : (
            <p className="text-sm text-muted">That is the oldest entry.</p>
          )}
        </div>
      )}
    </ConsolePage>
  );
}

function Filters({ filters, onApply }: { filters: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      action: draft.action || undefined,
      targetId: draft.targetId?.trim() || undefined,
      operatorId: draft.operatorId?.trim() || undefined,
    });
  };
  const hasFilters = Object.values(filters).some(Boolean);
  return (
    <form
      role="search"
      aria-label="Filter the audit log"
      onSubmit={submit}
      className="mt-6 grid gap-4 rounded-2xl border border-line bg-canvas p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end"
    >
      <div>
        <label htmlFor="audit-action" className="mb-1.5 block text-sm font-semibold text-ink">
          Action
        </label>
        <select
          id="audit-action"
          value={draft.action ?? ''}
          onChange={(event) => setDraft((d) => ({ ...d, action: event.target.value }))}
          className={cn(inputClasses, 'border-line-strong')}
        >
          <option value="">Any action</option>
          {ACTIONS.map((action) => (
            <option key={action.value} value={action.value}>
              {`${action.label} (${action.value})`}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label="Target id"
        value={draft.targetId ?? ''}
        onChange={(event) => setDraft((d) => ({ ...d, targetId: event.target.value }))}
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Operator id"
        value={draft.operatorId ?? ''}
        onChange={(event) => setDraft((d) => ({ ...d, operatorId: event.target.value }))}
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="secondary">
          Apply filters
        </Button>
        {hasFilters && (
          <Button variant="ghost" onClick={() => onApply({})}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

function Action({ action }: { action: string }) {
  const label = actionLabel(action);
  return (
    <>
      {label && <span className="block font-medium text-ink">{label}</span>}
      <code className="text-xs text-muted">{action}</code>
    </>
  );
}

function Target({ entry }: { entry: TAuditEntry }) {
  return (
    <>
      <span className="block text-ink">{entry.targetKind}</span>
      {entry.targetId && <code className="text-xs break-all text-muted">{entry.targetId}</code>}
    </>
  );
}

function Changes({ entry }: { entry: TAuditEntry }) {
  return (
    <details className="group">
      <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold text-ink underline underline-offset-4">
        Before and after
      </summary>
      <div className="mt-2 grid gap-3 md:grid-cols-2">
        {(['before', 'after'] as const).map((side) => (
          <div key={side}>
            <p className="text-xs font-semibold text-muted uppercase">{side === 'before' ? 'Before' : 'After'}</p>
            <pre className="mt-1 max-h-72 overflow-auto rounded-lg bg-surface p-3 text-xs whitespace-pre-wrap text-ink">
              {json(entry[side])}
            </pre>
          </div>
        ))}
      </div>
    </details>
  );
}

function When({ at }: { at: string }) {
  return <time dateTime={at}>{when(at)}</time>;
}

/** Wide screens: one row an entry. */
function EntryTable({ entries }: { entries: TAuditEntry[] }) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-line bg-canvas">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Audit log entries, newest first</caption>
        <thead className="border-b border-line bg-surface text-xs text-muted uppercase">
          <tr>
            {['When', 'Who', 'Action', 'Target', 'Reason'].map((name) => (
              <th key={name} scope="col" className="px-4 py-3 font-semibold">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <EntryRows key={entry._id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EntryRows({ entry }: { entry: TAuditEntry }) {
  return (
    <>
      <tr className="border-t border-line align-top">
        <td className="px-4 pt-3 whitespace-nowrap">
          <When at={entry.at} />
        </td>
        <td className="px-4 pt-3 break-all">{who(entry)}</td>
        <td className="px-4 pt-3">
          <Action action={entry.action} />
        </td>
        <td className="px-4 pt-3">
          <Target entry={entry} />
        </td>
        <td className="px-4 pt-3">{entry.reason}</td>
      </tr>
      <tr>
        <td colSpan={5} className="px-4 pb-2">
          <Changes entry={entry} />
        </td>
      </tr>
    </>
  );
}

/** Phones: one card an entry. */
function EntryList({ entries }: { entries: TAuditEntry[] }) {
  return (
    <ul aria-label="Audit log entries, newest first" className="space-y-3">
      {entries.map((entry) => (
        <li key={entry._id} className="rounded-2xl border border-line bg-canvas p-4 text-sm">
          <Action action={entry.action} />
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            <dt className="text-muted">When</dt>
            <dd>
              <When at={entry.at} />
            </dd>
            <dt className="text-muted">Who</dt>
            <dd className="break-all">{who(entry)}</dd>
            <dt className="text-muted">Target</dt>
            <dd className="min-w-0">
              <Target entry={entry} />
            </dd>
            <dt className="text-muted">Reason</dt>
            <dd>{entry.reason}</dd>
          </dl>
          <div className="mt-2">
            <Changes entry={entry} />
          </div>
        </li>
      ))}
    </ul>
  );
}

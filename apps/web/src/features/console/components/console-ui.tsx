import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode, Ref } from 'react';
import type { PersonStatus } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { CONSOLE_QUERY } from './console-layout';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A moment, as the console writes it, in a `<time>`. */
export function When({ at }: { at: string }) {
  return <time dateTime={at}>{timeFormat.format(new Date(at))}</time>;
}

export const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim() || 'No name';

export const ROLE_WORDS = { user: 'Member', trainer: 'Trainer' } as const;

export const STATUS_WORDS: Record<PersonStatus, string> = {
  active: 'Active',
  unverified: 'Unverified',
  suspended: 'Suspended',
  deleted: 'Deleted',
};

const badgeTones = {
  success: 'border-success-line bg-success-soft text-success',
  warning: 'border-warning-line bg-warning-soft text-warning-ink',
  danger: 'border-danger-line bg-danger-soft text-danger',
  neutral: 'border-line bg-surface text-muted',
} as const;

/** A short word in a pill: a status, "Hidden". */
export function Badge({ tone, children }: { tone: keyof typeof badgeTones; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        badgeTones[tone],
      )}
    >
      {children}
    </span>
  );
}

const statusTones = { active: 'success', unverified: 'warning', suspended: 'danger', deleted: 'neutral' } as const;

export function StatusBadge({ status }: { status: PersonStatus }) {
  return <Badge tone={statusTones[status]}>{STATUS_WORDS[status]}</Badge>;
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert
      tone="error"
      action={
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {what} {errorMessage(error)}
    </Alert>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-line bg-canvas px-4 py-8 text-center text-muted">{children}</p>;
}

/**
 * The server's word after an action, read out politely; it takes the focus when the dialog that did
 * the action closes (the button that opened it may be gone).
 */
export function ActionMessage({ message, ref }: { message: string | null; ref: Ref<HTMLParagraphElement> }) {
  return (
    <p
      ref={ref}
      tabIndex={-1}
      role="status"
      className={cn(
        'rounded-xl border border-success-line bg-success-soft px-4 py-3 text-sm font-medium text-success focus:outline-none',
        !message && 'sr-only',
      )}
    >
      {message}
    </p>
  );
}

/** After an action: every console answer but the operator's own is asked again (lists, pages, the queue). */
export function useRefreshConsole() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === CONSOLE_QUERY && query.queryKey[1] !== 'me' });
}

/** A table that scrolls sideways inside a labelled region on a narrow screen. */
export function ScrollTable({ label, headers, children }: { label: string; headers: string[]; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-2xl border border-line bg-canvas">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{label}</caption>
        <thead className="border-b border-line bg-surface text-xs text-muted uppercase">
          <tr>
            {headers.map((name) => (
              <th key={name} scope="col" className="px-4 py-3 font-semibold">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const cellClasses = 'border-t border-line px-4 py-3 align-top';

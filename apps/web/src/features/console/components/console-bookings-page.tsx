import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import {
  BOOKING_STATUSES,
  type TBookingStatus,
  type TConsoleBooking,
  type TConsoleBookingsQuery,
  type TConsoleRefundResponse,
} from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { inputClasses, TextField } from '@/components/ui/field';
import { consoleApi, useConsoleSession } from '@/lib/api/console';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { useIsPhone } from '../utils/use-is-phone';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { Badge, cellClasses, Empty, LoadError, Loading, ScrollTable, useRefreshConsole, When } from './console-ui';
import { LedgerPanel } from './ledger-panel';
import { RefundAction } from './refund-action';

type Search = { q?: string; status?: TBookingStatus };

const BOOKING_STATUS_WORDS: Record<TBookingStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  expired: 'Expired',
  'no-show': 'No-show',
};

const PAID_WITH_WORDS: Record<TConsoleBooking['paidWith'], string> = {
  card: 'Card',
  balance: 'Package or series',
  unpaid: 'Not paid',
};

const statusWords = (status: string) => BOOKING_STATUS_WORDS[status as TBookingStatus] ?? status;

function searchOf(params: URLSearchParams): Search {
  const search: Search = {};
  const q = params.get('q')?.trim();
  if (q) search.q = q.slice(0, 100);
  const status = BOOKING_STATUSES.find((each) => each === params.get('status'));
  if (status) search.status = status;
  return search;
}

const linkClasses = 'font-semibold text-ink underline underline-offset-4';

/**
 * Money left to give back, paid by card or from a balance (a package, a weekly series: refunded to the
 * card through it, docs/product.md#refunds-by-operators): the operator can refund it.
 */
const canRefund = (booking: TConsoleBooking) => booking.refundable > 0;

/**
 * `/console/bookings` (docs/product.md#refunds-by-operators): sessions by id, or a person's name or
 * e-mail, and status (kept in the address), newest first; a paid session refunded in full or in part
 * with a reason; and the ledger check on demand.
 */
export function ConsoleBookingsPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <Bookings token={token} />;
}

type Done = { message: string; pending: boolean };

function Bookings({ token }: { token: string }) {
  const [params, setParams] = useSearchParams();
  const search = searchOf(params);
  const isFiltered = Object.keys(search).length > 0;
  const bookings = useQuery({
    queryKey: [CONSOLE_QUERY, 'bookings', token, search],
    queryFn: () => consoleApi.bookings(search satisfies TConsoleBookingsQuery),
  });
  const isPhone = useIsPhone();
  const list = bookings.data?.bookings ?? [];
  const [done, setDone] = useState<Done | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const refresh = useRefreshConsole();

  const apply = (next: Search) => {
    const nextParams = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) nextParams.set(key, value);
    setDone(null);
    setParams(nextParams);
  };
  const onRefunded = ({ refund, message }: TConsoleRefundResponse) => {
    setDone({ message, pending: refund.status === 'pending' });
    void refresh();
  };
  const rows = { bookings: list, onRefunded, focusAfter: messageRef };

  return (
    <ConsolePage title="Sessions and money" wide>
      <p className="text-muted">
        Sessions by id, or a member&rsquo;s or trainer&rsquo;s name or e-mail, newest first (50 at most). A paid session can be
        refunded in full or in part, at any time: to the card that paid, or that bought its package or series.
      </p>
      <SearchForm key={params.toString()} search={search} onApply={apply} />

      <div className="mt-6">
        <RefundMessage done={done} ref={messageRef} />
      </div>
      <p role="status" className="mt-3 text-sm text-muted">
        {bookings.isSuccess && (list.length === 1 ? '1 session shown' : `${list.length} sessions shown`)}
      </p>
      <div className="mt-3">
        {bookings.isPending ? (
          <Loading label="Loading sessions…" />
        ) : bookings.isError ? (
          <LoadError what="Sessions could not be loaded." error={bookings.error} onRetry={() => void bookings.refetch()} />
        ) : list.length === 0 ? (
          <Empty>{isFiltered ? 'No sessions match.' : 'No sessions yet.'}</Empty>
        ) : isPhone ? (
          <BookingsList {...rows} />
        ) : (
          <BookingsTable {...rows} />
        )}
      </div>

      <div className="mt-10">
        <LedgerPanel />
      </div>
    </ConsolePage>
  );
}

/** The server's word after a refund; a refund the provider did not answer yet is said plainly, not as done. */
function RefundMessage({ done, ref }: { done: Done | null; ref: RefObject<HTMLParagraphElement | null> }) {
  return (
    <p
      ref={ref}
      tabIndex={-1}
      role="status"
      className={cn(
        'rounded-xl border px-4 py-3 text-sm font-medium focus:outline-none',
        done?.pending
          ? 'border-warning-line bg-warning-soft text-warning-ink'
          : 'border-success-line bg-success-soft text-success',
        !done && 'sr-only',
      )}
    >
      {done?.pending && <span className="font-semibold">Pending: </span>}
      {done?.message}
    </p>
  );
}

function SearchForm({ search, onApply }: { search: Search; onApply: (search: Search) => void }) {
  const [draft, setDraft] = useState<Search>(search);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, q: draft.q?.trim() || undefined });
  };
  const hasSearch = Object.values(search).some(Boolean);
  return (
    <form
      role="search"
      aria-label="Search sessions"
      onSubmit={submit}
      className="mt-6 grid gap-4 rounded-2xl border border-line bg-canvas p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_auto] lg:items-end"
    >
      <TextField
        label="Session id, name or e-mail"
        type="search"
        value={draft.q ?? ''}
        onChange={(event) => setDraft((d) => ({ ...d, q: event.target.value }))}
        maxLength={100}
        autoComplete="off"
        spellCheck={false}
      />
      <div>
        <label htmlFor="bookings-status" className="mb-1.5 block text-sm font-semibold text-ink">
          Status
        </label>
        <select
          id="bookings-status"
          value={draft.status ?? ''}
          onChange={(event) => setDraft((d) => ({ ...d, status: BOOKING_STATUSES.find((s) => s === event.target.value) }))}
          className={cn(inputClasses, 'border-line-strong')}
        >
          <option value="">Any status</option>
          {BOOKING_STATUSES.map((status) => (
            <option key={status} value={status}>
              {BOOKING_STATUS_WORDS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {hasSearch && (
          <Button variant="ghost" onClick={() => onApply({})}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

type RowsProps = {
  bookings: TConsoleBooking[];
  onRefunded: (refund: TConsoleRefundResponse) => void;
  focusAfter: RefObject<HTMLElement | null>;
};

function PersonLink({ id, name }: { id: string; name: string }) {
  return (
    <Link to={paths.console.person.getHref(id)} className={linkClasses}>
      {name}
    </Link>
  );
}

function Refund({ booking, onRefunded, focusAfter }: { booking: TConsoleBooking } & Omit<RowsProps, 'bookings'>) {
  return canRefund(booking) ? <RefundAction booking={booking} onDone={onRefunded} focusAfter={focusAfter} /> : null;
}

const refundedWords = (booking: TConsoleBooking) => (booking.refunded > 0 ? formatMoney(booking.refunded) : 'None');

/** Wide screens: one row a session. */
function BookingsTable({ bookings, onRefunded, focusAfter }: RowsProps) {
  return (
    <ScrollTable
      label="Sessions, newest first"
      headers={['Session', 'Member', 'Trainer', 'Status', 'Price', 'Paid with', 'Refunded', 'Refundable', 'Action']}
    >
      {bookings.map((booking) => (
        <tr key={booking._id}>
          <th scope="row" className={cn(cellClasses, 'text-left font-normal whitespace-nowrap')}>
            <When at={booking.startsAt} />
            {booking.disputed && (
              <span className="mt-1 block">
                <Badge tone="danger">Disputed</Badge>
              </span>
            )}
          </th>
          <td className={cellClasses}>
            <PersonLink id={booking.userId} name={booking.userName} />
          </td>
          <td className={cellClasses}>
            <PersonLink id={booking.trainerId} name={booking.trainerName} />
          </td>
          <td className={cellClasses}>{statusWords(booking.status)}</td>
          <td className={cellClasses}>{formatMoney(booking.price)}</td>
          <td className={cellClasses}>{PAID_WITH_WORDS[booking.paidWith]}</td>
          <td className={cellClasses}>{refundedWords(booking)}</td>
          <td className={cellClasses}>{formatMoney(booking.refundable)}</td>
          <td className={cellClasses}>
            <Refund booking={booking} onRefunded={onRefunded} focusAfter={focusAfter} />
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/** Phones: one card a session. */
function BookingsList({ bookings, onRefunded, focusAfter }: RowsProps) {
  return (
    <ul aria-label="Sessions, newest first" className="space-y-3">
      {bookings.map((booking) => (
        <li key={booking._id} className="rounded-2xl border border-line bg-canvas p-4 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold text-ink">
              <When at={booking.startsAt} />
            </p>
            {booking.disputed && <Badge tone="danger">Disputed</Badge>}
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            <dt className="text-muted">Member</dt>
            <dd>
              <PersonLink id={booking.userId} name={booking.userName} />
            </dd>
            <dt className="text-muted">Trainer</dt>
            <dd>
              <PersonLink id={booking.trainerId} name={booking.trainerName} />
            </dd>
            <dt className="text-muted">Status</dt>
            <dd>{statusWords(booking.status)}</dd>
            <dt className="text-muted">Price</dt>
            <dd>{formatMoney(booking.price)}</dd>
            <dt className="text-muted">Paid with</dt>
            <dd>{PAID_WITH_WORDS[booking.paidWith]}</dd>
            <dt className="text-muted">Refunded</dt>
            <dd>{refundedWords(booking)}</dd>
            <dt className="text-muted">Refundable</dt>
            <dd>{formatMoney(booking.refundable)}</dd>
          </dl>
          {canRefund(booking) && (
            <div className="mt-3">
              <Refund booking={booking} onRefunded={onRefunded} focusAfter={focusAfter} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

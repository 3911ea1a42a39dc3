import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import type { TConsoleOverviewResponse, TConsoleOverviewTotals } from '@spotter/shared';
import { consoleApi, useConsoleSession } from '@/lib/api/console';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { CONSOLE_QUERY, ConsolePage } from './console-layout';
import { Empty, LoadError, Loading } from './console-ui';
import { DayChart, formatDay, type ChartSeries } from './overview-chart';

/** The certificates queue, in another part of the console (docs/product.md#verified-coaches). */
const CERTIFICATES_HREF = '/console/certificates';

const TONES = {
  ink: { fill: 'fill-ink', stroke: 'stroke-ink' },
  danger: { fill: 'fill-danger', stroke: 'stroke-danger' },
  success: { fill: 'fill-success', stroke: 'stroke-success' },
  warning: { fill: 'fill-warning-ink', stroke: 'stroke-warning-ink' },
  accent: { fill: 'fill-accent-ink', stroke: 'stroke-accent-ink' },
} as const;

const count = (value: number) => value.toLocaleString('en-US');
const money = (value: number) => formatMoney(value);

/**
 * `/console/overview` (docs/product.md#the-overview): the last 30 days at a glance, with sums, charts
 * per day (each also a table) and what waits for an operator.
 */
export function ConsoleOverviewPage() {
  const { token } = useConsoleSession();
  if (!token) return <Navigate to={paths.console.login.getHref()} replace />;
  return <Overview token={token} />;
}

function Overview({ token }: { token: string }) {
  const overview = useQuery({ queryKey: [CONSOLE_QUERY, 'overview', token], queryFn: consoleApi.overview });
  return (
    <ConsolePage title="Overview" wide>
      {overview.isPending ? (
        <Loading label="Loading the overview…" />
      ) : overview.isError ? (
        <LoadError what="The overview could not be loaded." error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <Dashboard data={overview.data} />
      )}
    </ConsolePage>
  );
}

function Dashboard({ data }: { data: TConsoleOverviewResponse }) {
  const { totals, waiting } = data;
  const days = data.days.map((d) => d.day);
  const values = (key: keyof TConsoleOverviewTotals) => data.days.map((d) => d[key]);
  const quiet = Object.values(totals).every((value) => value === 0);
  return (
    <div className="grid gap-8">
      <p className="text-muted">
        The last 30 days, <time dateTime={data.from}>{formatDay(data.from)}</time> to{' '}
        <time dateTime={data.to}>{formatDay(data.to)}</time> (today), by UTC day.
      </p>

      <section aria-labelledby="overview-waiting">
        <h2 id="overview-waiting" className="font-display text-xl font-bold text-ink">
          Waiting
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-3">
          <WaitingTile label="Open reports" value={waiting.openReports} href={paths.console.reports.getHref()} />
          <WaitingTile label="Open disputes" value={waiting.openDisputes} />
          <WaitingTile label="Verifications waiting" value={waiting.pendingVerifications} href={CERTIFICATES_HREF} />
        </ul>
      </section>

      <section aria-labelledby="overview-totals">
        <h2 id="overview-totals" className="font-display text-xl font-bold text-ink">
          Last 30 days
        </h2>
        <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Tile label="Sessions booked">{count(totals.bookings)}</Tile>
          <Tile label="Cancellations">{count(totals.cancellations)}</Tile>
          <Tile label="Paid">{money(totals.paid)}</Tile>
          <Tile label="Refunded">{money(totals.refunded)}</Tile>
          <Tile label="Paid out">{money(totals.paidOut)}</Tile>
          <Tile label="Platform fees">{money(totals.fees)}</Tile>
          <Tile label="New members">{count(totals.newUsers)}</Tile>
          <Tile label="New trainers">{count(totals.newTrainers)}</Tile>
        </dl>
      </section>

      {quiet ? (
        <Empty>No bookings, payments or sign-ups in the last 30 days.</Empty>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <DayChart
            title="Bookings and cancellations per day"
            kind="bars"
            days={days}
            format={count}
            series={[
              { key: 'bookings', label: 'Sessions booked', tone: TONES.ink, values: values('bookings') },
              { key: 'cancellations', label: 'Cancellations', tone: TONES.danger, values: values('cancellations') },
            ]}
          />
          <DayChart
            title="New members and trainers per day"
            kind="bars"
            days={days}
            format={count}
            series={[
              { key: 'newUsers', label: 'New members', tone: TONES.ink, values: values('newUsers') },
              { key: 'newTrainers', label: 'New trainers', tone: TONES.accent, values: values('newTrainers') },
            ]}
          />
          <div className="lg:col-span-2">
            <DayChart title="Money per day" kind="lines" days={days} format={money} series={moneySeries(values)} />
          </div>
        </div>
      )}
    </div>
  );
}

function moneySeries(values: (key: keyof TConsoleOverviewTotals) => number[]): ChartSeries[] {
  return [
    { key: 'paid', label: 'Paid', tone: TONES.ink, values: values('paid') },
    { key: 'refunded', label: 'Refunded', tone: TONES.danger, dash: '6 4', values: values('refunded') },
    { key: 'paidOut', label: 'Paid out', tone: TONES.success, dash: '2 3', values: values('paidOut') },
    { key: 'fees', label: 'Platform fees', tone: TONES.warning, dash: '10 3 2 3', values: values('fees') },
  ];
}

function Tile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-line bg-canvas px-4 py-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 font-display text-2xl font-bold text-ink tabular-nums">{children}</dd>
    </div>
  );
}

function WaitingTile({ label, value, href }: { label: string; value: number; href?: string }) {
  const body = (
    <>
      <span className="block text-sm text-muted">{label}</span>
      <span className="mt-1 block font-display text-2xl font-bold text-ink tabular-nums">{count(value)}</span>
    </>
  );
  const box = 'block rounded-2xl border px-4 py-3';
  return (
    <li>
      {href ? (
        <Link
          to={href}
          className={`${box} border-line-strong bg-canvas hover:bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink`}
        >
          {body}
          <span className="mt-1 block text-sm font-semibold text-ink underline underline-offset-4">Open the queue</span>
        </Link>
      ) : (
        <div className={`${box} border-line bg-canvas`}>{body}</div>
      )}
    </li>
  );
}

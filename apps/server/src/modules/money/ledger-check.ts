import { z } from 'zod';
import type { Db } from '../../db/client';
import { defineJob, type JobRunner } from '../../platform/jobs';
import {
  countTransactions,
  emptyTransactions,
  negativeAccounts,
  ordersWithLedgerNet,
  paymentsWithLedger,
  recordDifferences,
  refundsRequestedBefore,
  refundsVersusLedger,
  scheduleOnce,
  suspenseBalances,
  unbalancedTransactions,
  unsettledCaptures,
} from './ledger-check.repo';
import type { PaymentProvider, ProviderName } from './providers/payment-provider';

/**
 * The ledger's reconciliation (docs/decisions/042-money-ledger.md): `npm run ledger -- check` and
 * the server's daily job. It only reads. It checks that every transaction balances and no account
 * but world:* is below zero; that each payment's order paid, by the ledger, its amount less its
 * completed refunds (nothing once refunded); that the completed refunds and the ledger's refunds
 * agree per order; that no money sits in suspense; that no refund or capture was left with an
 * unknown outcome; and, where a provider that keeps orders is configured (PayPal: the demo keeps
 * none), that the provider's captured total less its refunds equals what the ledger says was paid.
 */

type LedgerDifference = {
  kind:
    | 'unbalanced'
    | 'empty-transaction'
    | 'negative-account'
    | 'payment'
    | 'refund'
    | 'suspense'
    | 'refund-unknown'
    | 'capture-unknown'
    | 'provider'
    | 'provider-unreachable';
  /** In plain words, for the person reading the check's output or the log. */
  message: string;
  provider?: string;
  orderId?: string;
  bookingId?: string | null;
  key?: string;
  account?: string;
};

type LedgerReport = {
  ok: boolean;
  differences: LedgerDifference[];
  /** What was looked at. */
  checked: { transactions: number; payments: number; ordersAskedOfProviders: number };
};

type Log = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
};

type LedgerCheckOptions = {
  db: Db;
  /** Providers to ask about each order (getOrder); the demo provider is never asked (it keeps no orders). */
  providers?: Partial<Record<ProviderName, PaymentProvider>>;
  log?: Log;
  now?: () => Date;
  /** A refund still 'requested', or a capture still unknown, this long after it was written is listed. */
  unknownAfterMs?: number;
  /** Asks the providers only about orders with a payment or a ledger transaction since then (all by default). */
  providerSince?: Date;
};

/** Long enough for a refund call or a capture's settling job in progress not to be listed. */
const UNKNOWN_AFTER_MS = 15 * 60_000;

const amount = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
const orderName = (provider: string, orderId: string) => `order ${orderId} (${provider})`;
/** Statuses of a capture that took the money (a refund of it is counted apart, in refundedCents). */
const CAPTURED = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

export async function checkLedger({
  db,
  providers = {},
  log,
  now = () => new Date(),
  unknownAfterMs = UNKNOWN_AFTER_MS,
  providerSince,
}: LedgerCheckOptions): Promise<LedgerReport> {
  const differences: LedgerDifference[] = [];
  const add = (d: LedgerDifference) => differences.push(d);

  for (const t of await unbalancedTransactions(db))
    add({
      kind: 'unbalanced',
      key: t.key,
      message: `Ledger transaction ${t.key} (${t.kind}) does not balance: its entries sum to ${amount(t.total, t.currency)}, not zero.`,
    });
  for (const t of await emptyTransactions(db))
    add({ kind: 'empty-transaction', key: t.key, message: `Ledger transaction ${t.key} (${t.kind}) has no entries.` });
  for (const a of await negativeAccounts(db))
    add({
      kind: 'negative-account',
      account: a.account,
      message: `Account ${a.account} is below zero: ${amount(a.total, a.currency)}.`,
    });

  const payments = await paymentsWithLedger(db);
  for (const p of payments) {
    const due = p.status === 'refunded' ? 0 : p.amount - p.refunded;
    const order = orderName(p.provider, p.orderId);
    const said =
      p.status === 'refunded'
        ? `the payment was refunded (nothing kept)`
        : `the payment says ${amount(p.amount, p.currency)}${p.refunded ? ` less ${amount(p.refunded, p.currency)} refunded` : ''}, so ${amount(due, p.currency)} kept`;
    if (p.ledgerPaid !== due)
      add({
        kind: 'payment',
        provider: p.provider,
        orderId: p.orderId,
        bookingId: p.bookingId,
        message: `Paid on ${order}, booking ${p.bookingId}: ${said}, but the ledger says ${amount(p.ledgerPaid, p.currency)}.`,
      });
    else if (p.status === 'refunded' && p.refunded !== p.amount)
      add({
        kind: 'refund',
        provider: p.provider,
        orderId: p.orderId,
        bookingId: p.bookingId,
        message: `The payment on ${order} is marked refunded, but its completed refunds come to ${amount(p.refunded, p.currency)} of ${amount(p.amount, p.currency)}.`,
      });
  }

  for (const r of await refundsVersusLedger(db))
    add({
      kind: 'refund',
      provider: r.provider,
      orderId: r.orderId,
      message:
        r.refunds > r.ledger
          ? `Refunds completed on ${orderName(r.provider, r.orderId)} come to ${amount(r.refunds, r.currency)}, but the ledger's refund transactions give back ${amount(r.ledger, r.currency)}: a completed refund is missing from the ledger.`
          : `The ledger gives back ${amount(r.ledger, r.currency)} on ${orderName(r.provider, r.orderId)}, but its completed refunds come to ${amount(r.refunds, r.currency)}.`,
    });

  for (const s of await suspenseBalances(db))
    add({
      kind: 'suspense',
      account: s.account,
      message: `${amount(s.total, s.currency)} captured is placed on no booking and not refunded (${s.account}).`,
    });

  const before = new Date(now().getTime() - unknownAfterMs);
  for (const r of await refundsRequestedBefore(db, before))
    add({
      kind: 'refund-unknown',
      provider: r.provider,
      orderId: r.orderId,
      bookingId: r.bookingId,
      key: r.key,
      message: `A refund of ${amount(r.amount, r.currency)} on ${orderName(r.provider, r.orderId)} was asked on ${r.createdAt.toISOString()} and its outcome is not known (refund ${r.key}).`,
    });
  for (const c of await unsettledCaptures(db, before))
    add({
      kind: 'capture-unknown',
      provider: c.provider ?? undefined,
      orderId: c.orderId ?? undefined,
      bookingId: c.bookingId,
      message: `The capture of ${orderName(c.provider ?? '?', c.orderId ?? '?')} has been unknown since ${c.createdAt.toISOString()}: nothing settled it.`,
    });

  // the provider's side: asked one order at a time
  const asked = Object.values(providers).filter((p): p is PaymentProvider => !!p && p.name !== 'demo');
  let ordersAsked = 0;
  for (const o of await ordersWithLedgerNet(
    db,
    asked.map((p) => p.name),
    providerSince,
  )) {
    const provider = asked.find((p) => p.name === o.provider)!;
    const order = orderName(o.provider, o.orderId);
    ordersAsked++;
    let state;
    try {
      state = await provider.getOrder({ orderId: o.orderId });
    } catch (err) {
      add({
        kind: 'provider-unreachable',
        provider: o.provider,
        orderId: o.orderId,
        message: `Could not ask ${o.provider} about ${order}: ${err instanceof Error ? err.message : String(err)}.`,
      });
      continue;
    }
    const capture = state.capture;
    const currency = capture?.currency ?? state.currency;
    const captured = capture && CAPTURED.has(capture.status) ? (capture.amountCents ?? 0) : 0;
    const providerNet = captured - (state.refundedCents ?? 0);
    const currencies = new Set([...o.paid.keys(), ...(currency ? [currency] : [])]);
    for (const cur of currencies) {
      const ledger = o.paid.get(cur) ?? 0;
      const theirs = cur === currency ? providerNet : 0;
      if (ledger !== theirs)
        add({
          kind: 'provider',
          provider: o.provider,
          orderId: o.orderId,
          message: `${o.provider} says order ${o.orderId} was paid ${amount(theirs, cur)} (captured ${amount(cur === currency ? captured : 0, cur)} less ${amount(cur === currency ? (state.refundedCents ?? 0) : 0, cur)} refunded, capture ${capture?.status ?? 'none'}), but the ledger says ${amount(ledger, cur)}.`,
        });
    }
  }

  const report: LedgerReport = {
    ok: differences.length === 0,
    differences,
    checked: { transactions: await countTransactions(db), payments: payments.length, ordersAskedOfProviders: ordersAsked },
  };
  log?.info({ ledgerCheck: { ...report.checked, differences: differences.length } }, 'ledger checked');
  return report;
}

/** The daily reconciliation (platform/jobs.ts); each run schedules the next before it checks. */
export const ledgerCheckJob = defineJob('money.ledger-check', z.object({}));

const DAY_MS = 24 * 60 * 60_000;

type LedgerCheckJobDeps = Omit<LedgerCheckOptions, 'log'> & {
  log: Log;
  /** Told how many differences each check found (the metrics' `spotter_ledger_differences`). */
  countDifferences?: (count: number) => void;
};

/**
 * One check as the server runs it: a warning per difference in the log, the count to the metrics.
 * Providers are asked about the orders of the last 35 days unless `providerSince` says otherwise.
 */
export async function runLedgerCheck(deps: LedgerCheckJobDeps): Promise<LedgerReport> {
  const now = deps.now ?? (() => new Date());
  const report = await checkLedger({
    ...deps,
    providerSince: deps.providerSince ?? new Date(now().getTime() - 35 * DAY_MS),
  });
  for (const d of report.differences) deps.log.warn({ ledgerDifference: d }, d.message);
  // each difference also kept as a payment event (once), for operators after the log has rotated
  await recordDifferences(deps.db, report.differences, now());
  deps.countDifferences?.(report.differences.length);
  return report;
}

/**
 * Runs the check every day on the job runner: registers the handler and, unless one is waiting
 * already (another process, an earlier start), schedules the first run `firstInMs` from now.
 */
export async function scheduleDailyLedgerCheck(
  deps: LedgerCheckJobDeps & { jobs: JobRunner; firstInMs?: number },
): Promise<void> {
  const { jobs, db } = deps;
  const now = deps.now ?? (() => new Date());
  const enqueueAt = (runAt: Date) => (tx: Parameters<JobRunner['enqueue']>[0]) =>
    jobs.enqueue(tx, { kind: ledgerCheckJob, runAt, payload: {} });
  jobs.register(ledgerCheckJob, async (_payload, { now: at }) => {
    // the next run first: a check that fails is retried by the runner, the day after is still there
    await scheduleOnce(db, ledgerCheckJob.name, at, enqueueAt(new Date(at.getTime() + DAY_MS)));
    await runLedgerCheck({ ...deps, now: () => at });
  });
  await scheduleOnce(db, ledgerCheckJob.name, new Date(0), enqueueAt(new Date(now().getTime() + (deps.firstInMs ?? 60_000))));
}

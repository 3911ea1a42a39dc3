import type { PushNotify } from '../push';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import type { Mailer } from '../mail';
import { scheduleDailyLedgerCheck } from './ledger-check';
import { MONEY_JOBS } from './money-jobs';
import { payoutsRoutes } from './payouts.routes';
import * as repo from './payouts.repo';
import { createPayoutsService, type PayoutsService } from './payouts.service';
import type { PaymentProvider, ProviderName } from './providers/payment-provider';
import { createPaymentProviders } from './providers/payment-providers';

type MoneyModuleDeps = {
  database: Database;
  auth: Auth;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'paypal'>;
  /** The app's durable job runner; this module registers its job kinds on it. */
  jobs: JobRunner;
  /** The payment providers (built from `config.paypal` as the bookings module does when left out). */
  payments?: { provider: PaymentProvider; providers: Partial<Record<ProviderName, PaymentProvider>> };
  limits?: Pick<RateLimits, 'writes'>;
  /** The clock (tests move it); the jobs' own runs get the runner's. */
  now?: () => Date;
  /** How often shares due are made payable, unsent payouts sent again and sent ones settled. */
  sweepEveryMs?: number;
  /** How often payable balances are paid out. */
  payoutEveryMs?: number;
  /** Told how many differences each daily ledger check found (`spotter_ledger_differences` in /api/metrics). */
  countDifferences?: (count: number) => void;
  /** Told of each payout batch the provider refused (`spotter_payout_batches_refused_total`). */
  countRefusedBatch?: () => void;
  /** The push module's notifications (docs/product.md#notifications). */
  notify?: PushNotify;
};

const MINUTE = 60_000;

/**
 * Trainers paid out (docs/decisions/042-money-ledger.md#payouts): the payout address and history
 * routes, and the recurring durable jobs that make shares payable, pay them out and settle payouts.
 */
export function moneyModule({
  database,
  auth,
  mailer,
  config,
  jobs,
  payments,
  limits = { writes: [] },
  sweepEveryMs = 10 * MINUTE,
  payoutEveryMs = 24 * 60 * MINUTE,
  countDifferences,
  countRefusedBatch,
  now = () => new Date(),
  notify,
}: MoneyModuleDeps) {
  return async function (app: FastifyInstance) {
    const db = database.db;
    const { provider, providers } = payments ?? createPaymentProviders(config.paypal, app.log);
    const service = createPayoutsService({
      db,
      jobs,
      log: app.log,
      mailer,
      publicUrl: config.publicUrl,
      provider,
      providers,
      countRefusedBatch,
      notify,
    });
    registerMoneyJobs(app, database, jobs, service, { sweepEveryMs, payoutEveryMs });
    await ensureRecurringJobs(database, jobs, now, [
      [MONEY_JOBS.sweep, sweepEveryMs],
      [MONEY_JOBS.payouts, payoutEveryMs],
    ]);
    // the ledger reconciled with the payments and the provider once a day, the first a day after the first start
    await scheduleDailyLedgerCheck({ db, providers, log: app.log, jobs, countDifferences, now, firstInMs: 24 * 60 * MINUTE });
    await app.register(payoutsRoutes(service, auth, limits));
  };
}

/** The recurring jobs, each enqueuing its next run (once: not when another run is already waiting). */
function registerMoneyJobs(
  app: FastifyInstance,
  database: Database,
  jobs: JobRunner,
  service: PayoutsService,
  every: { sweepEveryMs: number; payoutEveryMs: number },
) {
  const db = database.db;
  const log = app.log;
  async function next(kind: typeof MONEY_JOBS.sweep, at: Date, everyMs: number) {
    if (!(await repo.jobWaiting(db, kind.name, at)))
      await jobs.enqueue(db, { kind, runAt: new Date(at.getTime() + everyMs), payload: {} });
  }

  jobs.register(MONEY_JOBS.sweep, async (_payload, { now: at }) => {
    try {
      await service.makeDueSharesPayable(at);
      await service.retryPendingBatches(at);
      await service.settleSentBatches(at);
    } catch (err) {
      log.error({ err }, 'money sweep failed; it runs again');
    }
    await next(MONEY_JOBS.sweep, at, every.sweepEveryMs);
  });

  jobs.register(MONEY_JOBS.payouts, async (_payload, { now: at }) => {
    try {
      await service.makeDueSharesPayable(at);
      const batchKey = await service.writePayoutBatch(at);
      // a failure here leaves the batch pending: the sweep sends it again with the same key
      if (batchKey)
        await service.sendBatch(batchKey, at).catch((err) => log.warn({ err, batchKey }, 'payout batch not sent; will retry'));
    } catch (err) {
      log.error({ err }, 'payouts failed; they run again');
    }
    await next(MONEY_JOBS.payouts, at, every.payoutEveryMs);
  });

  jobs.register(MONEY_JOBS.returnedMail, async ({ payoutId }) => service.sendReturnedMail(payoutId));
}

/**
 * Enqueues each recurring job unless one is waiting already (another process, or an earlier start,
 * did), its first run one interval from now: nothing is due at a first start, and a test's
 * database does not change under it while it runs.
 */
async function ensureRecurringJobs(
  database: Database,
  jobs: JobRunner,
  now: () => Date,
  kinds: Array<[typeof MONEY_JOBS.sweep, number]>,
) {
  await database.db.transaction(async (tx) => {
    await repo.lockJobScheduling(tx);
    for (const [kind, everyMs] of kinds)
      if (!(await repo.jobWaiting(tx, kind.name)))
        await jobs.enqueue(tx, { kind, runAt: new Date(now().getTime() + everyMs), payload: {} });
  });
}

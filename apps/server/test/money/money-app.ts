import { and, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ledgerEntries, ledgerTransactions, payments } from '../../src/db/schema';
import { createTokenService } from '../../src/lib/tokens';
import { bookingsModule, createBookingsServices } from '../../src/modules/bookings';
import type { Mail } from '../../src/modules/mail';
import { account, moneyModule, post, type PaymentProvider } from '../../src/modules/money';
import { createDemoProvider } from '../../src/modules/money/providers/demo-provider';
import { ProviderUnavailableError } from '../../src/modules/money/providers/payment-provider';
import { cachesPlugin } from '../../src/platform/caches';
import { eventsPlugin } from '../../src/platform/events';
import { createJobRunner } from '../../src/platform/jobs';
import { settledWritesPlugin } from '../../src/platform/settled-writes';
import { createAuth } from '../../src/plugins/auth';
import { registerErrorHandling } from '../../src/plugins/errors';
import type { TestApp } from '../helper';

/**
 * A payout provider the test scripts, on the demo provider: `timeoutAfterPaying` batches are taken
 * (and paid) and then answered with a timeout, as a slow network would; `itemStatus` is what the
 * provider later reports for each item (SUCCESS at once otherwise). It pays a `senderBatchId` once:
 * the same id again answers the first batch, as PayPal does.
 */
export function scriptedPayouts() {
  const demo = createDemoProvider();
  const batches = new Map<string, Awaited<ReturnType<PaymentProvider['createPayoutBatch']>>>();
  const state = {
    calls: [] as Array<{ senderBatchId: string; items: number }>,
    /** Every item paid (once per sender batch id). */
    paid: [] as Array<{ senderBatchId: string; senderItemId: string; email: string; amountCents: number }>,
    timeoutAfterPaying: 0,
    itemStatus: undefined as string | undefined,
  };
  const provider: PaymentProvider = {
    ...demo,
    async createPayoutBatch(input) {
      state.calls.push({ senderBatchId: input.senderBatchId, items: input.items.length });
      let batch = batches.get(input.senderBatchId);
      if (!batch) {
        const answer = await demo.createPayoutBatch(input);
        for (const i of input.items) state.paid.push({ senderBatchId: input.senderBatchId, ...i });
        batch = state.itemStatus
          ? { ...answer, status: 'PENDING', items: answer.items.map((i) => ({ ...i, status: 'PENDING' })) }
          : answer;
        batches.set(input.senderBatchId, batch);
      }
      if (state.timeoutAfterPaying > 0) {
        state.timeoutAfterPaying--;
        throw new ProviderUnavailableError('timeout', 'PayPal did not answer in time');
      }
      return batch;
    },
    async getPayoutBatch({ batchId }) {
      const batch = [...batches.values()].find((b) => b.batchId === batchId);
      if (!batch) throw new Error(`no batch ${batchId}`);
      const status = state.itemStatus ?? 'SUCCESS';
      return { ...batch, status: 'SUCCESS', items: batch.items.map((i) => ({ ...i, status })) };
    },
  };
  return { provider, state };
}

/**
 * The bookings and money modules as app.ts wires them, on the test app's database, with a clock
 * the test moves (`jobs.runDue({ now })` runs the jobs as of then) and `provider` for payouts.
 * Mails are kept in `mails`. `as` is a TestApp whose `app` is this one (for the booking helpers).
 */
export async function buildMoneyApp(t: TestApp, provider: PaymentProvider) {
  let clock = new Date();
  const now = () => clock;
  const mails: Mail[] = [];
  const mailer = { send: async (m: Mail) => void mails.push(m) };
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  const jobs = createJobRunner({ db: t.database.db, log: app.log, now });
  const auth = createAuth(t.database.db, createTokenService(t.config.jwtSecret));
  const config = { publicUrl: 'http://localhost:3000', paypal: { apiBase: 'http://127.0.0.1:9', timeoutMs: 1000 } };
  await app.register(eventsPlugin, { database: t.database });
  await app.register(cachesPlugin);
  await app.register(settledWritesPlugin, { database: t.database });
  const services = createBookingsServices({
    database: t.database,
    mailer,
    config,
    jobs,
    now,
    log: app.log,
    events: app.events,
  });
  await app.register(
    async (api) => {
      await api.register(bookingsModule({ database: t.database, auth, jobs, config, services, mailer }));
      await api.register(
        moneyModule({
          database: t.database,
          auth,
          jobs,
          config,
          mailer,
          payments: { provider, providers: { demo: provider } },
          payoutEveryMs: 10 * 60_000,
        }),
      );
    },
    { prefix: '/api' },
  );
  await app.ready();
  return {
    app,
    jobs,
    mails,
    as: { ...t, app } as TestApp,
    setNow(d: Date) {
      clock = d;
    },
    close: () => app.close(),
  };
}

/**
 * The capture's `payment` ledger transaction as docs/decisions/042-money-ledger.md writes it
 * (world → trainer pending + platform fees, key `capture:<provider>:<captureId>`), unless the
 * capture wrote one already.
 */
export async function postPaymentOf(t: TestApp, bookingId: string) {
  const db = t.database.db;
  const [p] = await db.select().from(payments).where(eq(payments.bookingId, bookingId));
  if (!p) throw new Error(`no payment for booking ${bookingId}`);
  const [existing] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'payment')));
  if (!existing)
    await db.transaction((tx) =>
      post(tx, {
        key: `capture:${p.provider}:${p.captureId}`,
        kind: 'payment',
        bookingId,
        trainerId: p.trainerId,
        userId: p.userId,
        provider: p.provider,
        providerOrderId: p.providerOrderId,
        entries: [
          { account: account.world(p.provider), amountCents: -p.amountCents, currency: p.currency },
          { account: account.trainerPending(p.trainerId), amountCents: p.amountCents - p.feeCents, currency: p.currency },
          { account: account.fees, amountCents: p.feeCents, currency: p.currency },
        ],
      }),
    );
  return { shareCents: p.amountCents - p.feeCents, amountCents: p.amountCents };
}

/** Per currency, what all ledger entries sum to (every transaction balances, so all zero). */
export async function ledgerSums(t: TestApp) {
  const rows = await t.database.db
    .select({ currency: ledgerEntries.currency, total: sql<string>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.currency);
  return Object.fromEntries(rows.map((r) => [r.currency, Number(r.total)]));
}

/** The kinds of the ledger transactions about a booking, oldest first. */
export async function ledgerKindsOf(t: TestApp, bookingId: string) {
  const rows = await t.database.db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.bookingId, bookingId))
    .orderBy(ledgerTransactions.createdAt);
  return rows.map((r) => r.kind);
}

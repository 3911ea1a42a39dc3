import type { PushNotify } from '../push';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { BOOKING_RULES } from '@spotter/shared';
import type { Config } from '../../config';
import type { Database, Tx } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { ACCOUNT_JOBS, enqueueAccountLeft, type AccountLeftReason } from './account-jobs';
import { availabilityRoutes } from './availability.routes';
import { slotStateReader } from './availability.repo';
import { createAvailabilityService } from './availability.service';
import type { Mailer } from '../mail';
import { createPaymentProviders } from '../money';
import { checkOrder } from './capture-order';
import { PACKAGE_JOBS, RELEASE_JOBS, WAITLIST_OFFER_JOB } from './booking-jobs';
import { refundReleased } from './release-booking';
import { expireBalance, refundWholeBalance } from './packages';
import { offerFreedSlot } from './offer-freed-slot';
import { waitlistRoutes } from './waitlist.routes';
import { packagesRoutes } from './packages.routes';
import { PAYMENT_JOBS } from './payment-jobs';
import { runFinishRefund } from './refunds';
import { finishBalanceSessionRefund } from './refund-balance-session';
import { paymentsRoutes } from './payments.routes';
import { createPaymentsService } from './payments.service';
import { bookingsRoutes } from './bookings.routes';
import { createBookingsService } from './bookings.service';
import { cancelAccountSessions } from './cancel-account-sessions';
import type { BookingEvents, BookingsContext } from './context';

type BookingsModuleDeps = {
  database: Database;
  auth: Auth;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'paypal'>;
  /** The app's durable job runner; this module registers its job kinds on it. */
  jobs: JobRunner;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Services built beforehand with `createBookingsServices` (so other modules can call them); built here otherwise. */
  services?: BookingsServices;
  /** Limits on the writes (holds, orders, captures, cancellations, weekly hours); none without (tests' small apps). */
  limits?: Pick<RateLimits, 'writes'>;
  /** Slot reads under way at once (platform/batch-loader.ts); 1 by default, as PGlite runs one statement at a time. */
  concurrentReads?: number;
  /** The push module's notifications (docs/product.md#notifications); none without (tests' small apps). */
  notify?: PushNotify;
};

/**
 * The module's services (weekly hours and slots, the bookings' reads and jobs, the payments' reads)
 * and the context its use cases run with. Build them once per app: the bookings service registers
 * its job kinds on the runner.
 */
export function createBookingsServices({
  database,
  mailer,
  config,
  jobs,
  now,
  log,
  events,
  concurrentReads,
  notify,
}: Omit<BookingsModuleDeps, 'auth' | 'services' | 'limits'> & { log: FastifyBaseLogger; events: BookingEvents }) {
  const db = database.db;
  const clock = now ?? (() => new Date());
  const availability = createAvailabilityService({ db, now: clock });
  const slotStates = slotStateReader(db, clock, BOOKING_RULES.daysAhead, concurrentReads);
  const bookings = createBookingsService({ db, jobs, mailer, publicUrl: config.publicUrl, now: clock, notify });
  const { provider, providers } = createPaymentProviders(config.paypal, log);
  const payments = createPaymentsService({ db, provider, bookings });
  /** What the use cases (hold-slot.ts, capture-order.ts…) are given. */
  const context: BookingsContext = {
    db,
    jobs,
    log,
    now: clock,
    provider,
    providers,
    availability,
    slotStates,
    events,
    paypalWebhookId: config.paypal.webhookId,
  };
  jobs.register(WAITLIST_OFFER_JOB, (payload, { now: at }) => offerFreedSlot(context, payload, at));
  jobs.register(RELEASE_JOBS.refund, ({ bookingId }) => refundReleased(context, bookingId));
  jobs.register(PACKAGE_JOBS.expire, ({ balanceId }, { now: at }) => expireBalance(context, balanceId, at));
  jobs.register(PACKAGE_JOBS.refundClosed, ({ balanceId }) => refundWholeBalance(context, balanceId));
  jobs.register(PAYMENT_JOBS.checkOrder, (payload) => checkOrder(context, payload));
  // a refund of a session paid from a balance has its own ledger (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
  jobs.register(PAYMENT_JOBS.finishRefund, async (payload) => {
    if (!(await finishBalanceSessionRefund(context, payload))) await runFinishRefund(context, payload);
  });
  // a trainer who left: holds released, paid sessions refunded (docs/decisions/042-money-ledger.md#a-trainer-who-leaves)
  jobs.register(ACCOUNT_JOBS.trainerLeft, async ({ since, trainerId, reason }) => {
    await cancelAccountSessions(context, { who: { role: 'trainer', id: trainerId }, reason, since: new Date(since) });
  });
  // a user suspended or deleted by an operator (docs/product.md#suspending-an-account)
  jobs.register(ACCOUNT_JOBS.userLeft, async ({ since, userId, reason }) => {
    await cancelAccountSessions(context, { who: { role: 'user', id: userId }, reason, since: new Date(since) });
  });
  /** The accounts module's deletion hook (wired in app.ts): the job, in the deletion's transaction. */
  const trainerLeft = (tx: Tx, trainerId: string) =>
    enqueueAccountLeft(context, tx, { who: { role: 'trainer', id: trainerId }, reason: 'account-deleted' });
  /** The console's suspension and deletion (wired in app.ts): the job, in the operator action's transaction. */
  const accountLeft = (tx: Tx, who: { role: 'user' | 'trainer'; id: string }, reason: AccountLeftReason) =>
    enqueueAccountLeft(context, tx, { who, reason });
  return { availability, bookings, payments, context, trainerLeft, accountLeft };
}
type BookingsServices = ReturnType<typeof createBookingsServices>;

/** Availability and slots, bookings, and their payments (docs/product.md#booking-and-payment). */
export function bookingsModule({ auth, services, limits = { writes: [] }, ...deps }: BookingsModuleDeps) {
  return async function (app: FastifyInstance) {
    const { availability, bookings, payments, context } =
      services ?? createBookingsServices({ ...deps, log: app.log, events: app.events });
    await app.register(availabilityRoutes(availability, context, auth, limits));
    await app.register(bookingsRoutes(bookings, context, auth, limits));
    await app.register(paymentsRoutes(payments, context, auth, limits));
    await app.register(waitlistRoutes(context, auth, limits));
    await app.register(packagesRoutes(context, auth, limits));
  };
}

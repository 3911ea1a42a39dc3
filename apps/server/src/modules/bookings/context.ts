import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ROLE_MSG } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import type { JobRunner } from '../../platform/jobs';
import type { slotStateReader } from './availability.repo';
import type { AvailabilityService } from './availability.service';
import { ProviderUnavailableError, type PaymentProvider, type ProviderName } from '../money';

/** The platform's events (`app.events`, docs/architecture.md#how-a-push-travels): channel names and a publish bound to a write. */
export type BookingEvents = Pick<FastifyInstance['events'], 'channels' | 'publish'>;

/**
 * What every use case of the module is given, built once per app by `createBookingsServices`
 * (docs/decisions/039-one-bookings-module.md): the first argument of `captureOrder(ctx, input)` and
 * its siblings.
 */
export type BookingsContext = {
  db: Db;
  jobs: JobRunner;
  log: FastifyBaseLogger;
  /** The module's clock (tests move it). */
  now: () => Date;
  /** The provider new orders go to. */
  provider: PaymentProvider;
  /** Every provider that may hold an older payment (for refunds and captures of earlier orders). */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  /** Weekly hours, and whether a time is a trainer's slot (a service: reads only). */
  availability: AvailabilityService;
  /** A trainer's slot states (hours, taken slots), read in batches with other visitors' (docs/decisions/026-batched-reads.md). */
  slotStates: ReturnType<typeof slotStateReader>;
  /** Announces a booking's change to both sides' sockets, with the write's transaction. */
  events: BookingEvents;
  /** PayPal's webhook id (PAYPAL_WEBHOOK_ID); without it webhooks are refused. */
  paypalWebhookId?: string;
};

/**
 * Announces, with the transaction of the write, that a booking was confirmed, cancelled, refunded or
 * marked a no-show: after the commit every process pushes it to the user's and the trainer's
 * sockets, each as they see it (the chats module's socket hub, docs/architecture.md#how-a-push-travels).
 */
export async function announceBooking(
  ctx: Pick<BookingsContext, 'events'>,
  tx: Tx,
  booking: { id: string; userId: string; trainerId: string },
): Promise<void> {
  const payload: BookingEvent = { id: booking.id, u: booking.userId, t: booking.trainerId };
  await ctx.events.publish(tx, ctx.events.channels.booking, JSON.stringify(payload));
}
/** The `booking` channel's payload: the booking and its user (`u`) and trainer (`t`). */
type BookingEvent = { id: string; u: string; t: string };

/** The provider a stored order or payment was made with (the current one when none is named). */
export function providerOf(ctx: BookingsContext, name: string | null | undefined): PaymentProvider {
  const p = name ? ctx.providers[name as ProviderName] : ctx.provider;
  if (!p) throw new ProviderUnavailableError('down', `the ${name} payment provider is not configured`);
  return p;
}

/** Only users book and pay; visitors get 401 and trainers 403, with the product's toasts. */
export function requireUser(caller: Caller | undefined): Caller {
  if (!caller) throw new AppError('UNAUTHENTICATED', ROLE_MSG.loginToBook);
  if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', ROLE_MSG.trainersCantBook);
  return caller;
}

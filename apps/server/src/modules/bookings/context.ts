import type { FastifyBaseLogger } from 'fastify';
import { ROLE_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import type { JobRunner } from '../../platform/jobs';
import type { slotStateReader } from './availability.repo';
import type { AvailabilityService } from './availability.service';
import { ProviderUnavailableError, type PaymentProvider, type ProviderName } from './payments/payment-provider';

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
};

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

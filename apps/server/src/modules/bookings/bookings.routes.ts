import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BOOKING_MSG,
  ZBookingResponse,
  ZBookingsResponse,
  ZCreateBookingRequest,
  ZErrorResponse,
  ZIdParam,
  ZNoShowResponse,
  ZReleaseBookingResponse,
  ZRescheduleBookingRequest,
  ZRescheduleBookingResponse,
  ZSeriesResponse,
  DISPUTE_MSG,
  ZDisputeRequest,
  ZDisputeResponse,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import { nextChangeOf } from './booking-view';
import type { BookingsService } from './bookings.service';
import type { BookingsContext } from './context';
import { bookFromBalance } from './book-from-balance';
import { HoldCooldown, holdSlot } from './hold-slot';
import { bookSeries, holdSeries } from './weekly-series';
import { markNoShow } from './mark-no-show';
import { openDispute } from './disputes';
import { releaseBooking } from './release-booking';
import { rescheduleBooking } from './reschedule-booking';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

/** The caller's list is kept until a write concerns them or it changes by itself (docs/decisions/024-personal-read-cache.md). */
export function bookingsRoutes(service: BookingsService, ctx: BookingsContext, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    app.addHook('onError', async (_req, reply, err) => {
      if (err instanceof HoldCooldown) reply.header('Retry-After', err.retryAfterSeconds);
    });

    r.post(
      '/bookings',
      {
        schema: {
          tags: ['bookings'],
          summary:
            "Hold a free slot for 10 minutes while you pay (users only); with payWith: 'balance', book it paid from your package balance with the trainer; with weeks (4, 8 or 12), a standing weekly series ({ seriesId, bookings, unavailable }): paid from the balance with payWith: 'balance', otherwise its free weeks held for 10 minutes while you pay for them together (POST /api/orders { seriesId })",
          body: ZCreateBookingRequest,
          response: { 201: z.union([ZBookingResponse, ZSeriesResponse]), ...errors },
        },
        // the role answers are the spec's toasts, so the visitor and trainer cases are the service's
        preHandler: [auth.optionalAuth, ...limits.writes],
      },
      async (req, reply) => {
        const { weeks } = req.body;
        if (weeks !== undefined) {
          const input = { ...req.body, weeks };
          return reply
            .status(201)
            .send(
              req.body.payWith === 'balance'
                ? await bookSeries(ctx, { caller: req.caller, input })
                : await holdSeries(ctx, { caller: req.caller, input }),
            );
        }
        return reply.status(201).send({
          booking:
            req.body.payWith === 'balance'
              ? await bookFromBalance(ctx, { caller: req.caller, input: req.body })
              : await holdSlot(ctx, { caller: req.caller, input: req.body }),
        });
      },
    );

    r.get(
      '/bookings',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Your sessions (users) or schedule (trainers), upcoming first',
          response: { 200: ZBookingsResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
        config: {
          cache: {
            in: 'personal',
            caller: (req) => callerOf(req).id,
            clock: () => service.now().getTime(),
            validUntil: (answer: { bookings: Parameters<typeof nextChangeOf>[0] }, readAt: number) =>
              nextChangeOf(answer.bookings, new Date(readAt)),
          },
        },
      },
      async (req) => ({ bookings: await service.listBookings(callerOf(req)) }),
    );

    r.post(
      '/bookings/:id/reschedule',
      {
        schema: {
          tags: ['bookings'],
          summary:
            'Move a paid session to another free slot of the same trainer (its user, more than 24 h before it starts; no money moves)',
          params: ZIdParam(BOOKING_MSG.notFound),
          body: ZRescheduleBookingRequest,
          response: { 200: ZRescheduleBookingResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => rescheduleBooking(ctx, { caller: callerOf(req), bookingId: req.params.id, startsAt: req.body.startsAt }),
    );

    r.post(
      '/bookings/:id/release',
      {
        schema: {
          tags: ['bookings'],
          summary:
            'Give a paid session inside 24 hours back for resale (its user): it stays yours until somebody books it, then you are refunded in full',
          params: ZIdParam(BOOKING_MSG.notFound),
          response: { 200: ZReleaseBookingResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => releaseBooking(ctx, { caller: callerOf(req), bookingId: req.params.id }),
    );

    r.post(
      '/bookings/:id/no-show',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Mark that the client did not come (the session’s trainer, after it started; no money moves)',
          params: ZIdParam(BOOKING_MSG.notFound),
          response: { 200: ZNoShowResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => markNoShow(ctx, { caller: callerOf(req), bookingId: req.params.id }),
    );

    r.post(
      '/bookings/:id/dispute',
      {
        schema: {
          tags: ['bookings'],
          summary:
            'Dispute a paid session within 48 hours after it ends (its user): decided by rule where the facts decide, otherwise by an operator; its payout waits meanwhile',
          params: ZIdParam(DISPUTE_MSG.notFound),
          body: ZDisputeRequest,
          response: { 201: ZDisputeResponse, ...errors },
        },
        preHandler: [auth.requireAuth('user'), ...limits.writes],
      },
      async (req, reply) => {
        const { status, body } = await openDispute(ctx, { userId: callerOf(req).id, bookingId: req.params.id, input: req.body });
        return reply.status(status).send(body);
      },
    );
  };
}

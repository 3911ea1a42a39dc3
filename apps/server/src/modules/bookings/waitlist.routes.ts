import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  WAITLIST_MSG,
  ZErrorResponse,
  ZIdParam,
  ZJoinWaitlistRequest,
  ZWaitlistEntryResponse,
  ZWaitlistLeaveResponse,
  ZWaitlistResponse,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import type { BookingsContext } from './context';
import { joinWaitlist, leaveWaitlist, listWaitlist } from './waitlist';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

/** A user's waits for a time of a trainer (docs/product.md#waitlist); the role answers are the service's. */
export function waitlistRoutes(ctx: BookingsContext, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/waitlist',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Wait for a time of a trainer: a slot freed in the window is held for you for 30 minutes (users only)',
          body: ZJoinWaitlistRequest,
          response: { 201: ZWaitlistEntryResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req, reply) => reply.status(201).send(await joinWaitlist(ctx, { caller: req.caller, input: req.body })),
    );
    r.get(
      '/waitlist',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Your waits whose window has not passed, with the slot held for you when there is one',
          response: { 200: ZWaitlistResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
      },
      async (req) => listWaitlist(ctx, { caller: req.caller }),
    );
    r.delete(
      '/waitlist/:id',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Leave a waitlist (a slot already held for you stays yours until you cancel it or it runs out)',
          params: ZIdParam(WAITLIST_MSG.notFound),
          response: { 200: ZWaitlistLeaveResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => leaveWaitlist(ctx, { caller: req.caller, id: req.params.id }),
    );
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ROLE_MSG,
  SERVER_MSG,
  ZAvailabilityRequest,
  ZAvailabilityResponse,
  ZErrorResponse,
  ZIdParam,
  ZSlotsResponse,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { AvailabilityService } from './availability.service';
import type { BookingsContext } from './context';
import { freeSlots } from './free-slots';
import { setWeeklyHours } from './set-weekly-hours';
import { nextLocalMidnight } from './slots';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };

/** Weekly hours and free slots are kept until a write concerns the trainer (docs/decisions/024-personal-read-cache.md). */
export function availabilityRoutes(
  service: AvailabilityService,
  ctx: BookingsContext,
  auth: Auth,
  limits: Pick<RateLimits, 'writes'>,
) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const trainerOnly = auth.requireAuth('trainer', ROLE_MSG.loginAsTrainer);

    r.get(
      '/trainer/availability',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Your weekly hours, time zone, minimum notice, buffer, date overrides (from today on) and place (trainers)',
          response: { 200: ZAvailabilityResponse, ...errors },
        },
        preHandler: trainerOnly,
        // dates before today are left out of the overrides: the answer changes at the trainer's midnight
        config: {
          cache: {
            in: 'personal',
            caller: (req) => callerOf(req).id,
            clock: () => service.now().getTime(),
            validUntil: (answer: { timeZone: string; overrides: unknown[] }, readAt: number) =>
              answer.overrides.length ? nextLocalMidnight(readAt, answer.timeZone) : undefined,
          },
        },
      },
      async (req) => service.availabilityOf(callerOf(req).id),
    );

    r.put(
      '/trainer/availability',
      {
        schema: {
          tags: ['bookings'],
          summary:
            'Set your weekly hours (weekday 0 = Sunday, local start hours 0-23), IANA time zone and booking policy; policy fields left out keep their saved values (trainers)',
          body: ZAvailabilityRequest,
          response: { 200: ZAvailabilityResponse, ...errors },
        },
        preHandler: [trainerOnly, ...limits.writes],
      },
      async (req) => setWeeklyHours(ctx, { trainerId: callerOf(req).id, availability: req.body }),
    );

    r.get(
      '/trainers/:id/slots',
      {
        schema: {
          tags: ['bookings'],
          summary: "A trainer's free one-hour slots in the next 14 days (UTC start times)",
          params: ZIdParam(SERVER_MSG.trainerNotFound),
          response: { 200: ZSlotsResponse, ...errors },
        },
        // the same for everyone; `changesAt` is not part of the answer (the response schema leaves it out)
        config: {
          cache: {
            in: 'personal',
            scopeParams: ['id'],
            clock: () => service.now().getTime(),
            validUntil: (answer: { changesAt?: number }) => answer.changesAt,
          },
        },
      },
      async (req) => freeSlots(ctx, { trainerId: req.params.id.toLowerCase() }),
    );
  };
}

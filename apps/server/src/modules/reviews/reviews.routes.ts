import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REVIEW_MSG,
  SERVER_MSG,
  ZCreateReviewRequest,
  ZCreateReviewResponse,
  ZErrorResponse,
  ZReviewsResponse,
  ZIdParam,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import type { ReviewsService } from './reviews.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };

/**
 * The reads are answered from the read cache (docs/decisions/019-read-cache.md). A signed-in
 * caller's reviews carry `isMine`, so their answer is cached under their id, never shared.
 */
export function reviewsRoutes(service: ReviewsService, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/trainer/reviews/:id',
      {
        schema: {
          tags: ['reviews'],
          summary: "A trainer's reviews, newest first",
          params: ZIdParam(SERVER_MSG.trainerNotFound),
          response: { 200: ZReviewsResponse, ...errors },
        },
        preHandler: auth.optionalAuth,
        config: { cache: { in: 'public', caller: (req) => req.caller?.id } },
      },
      async (req) => ({ allReviews: await service.listReviews(req.params.id.toLowerCase(), req.caller?.id) }),
    );

    r.get(
      '/trainer/reviews/:id/distribution',
      {
        schema: {
          tags: ['reviews'],
          summary: 'How many reviews gave each number of stars',
          // any string: a malformed id has no reviews, so it answers zeros rather than 404
          params: z.object({ id: z.string() }),
          response: { 200: z.object({ distribution: z.record(z.enum(['1', '2', '3', '4', '5']), z.number()) }) },
        },
        config: { cache: { in: 'public' } },
      },
      async (req) => ({ distribution: await service.distribution(req.params.id) }),
    );

    r.post(
      '/reviews/new',
      {
        schema: {
          tags: ['reviews'],
          summary: 'Post or edit your review of a trainer (users only)',
          body: ZCreateReviewRequest,
          response: { 201: ZCreateReviewResponse, ...errors },
        },
        preHandler: [auth.optionalAuth, ...limits.writes],
      },
      async (req, reply) => {
        const review = await service.postReview(req.caller, req.body);
        return reply.status(201).send({ message: REVIEW_MSG.created, review });
      },
    );
  };
}

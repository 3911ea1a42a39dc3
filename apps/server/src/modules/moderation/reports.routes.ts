import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { REPORT_MSG, ZCreateReportRequest, ZCreateReportResponse, ZErrorResponse } from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import { reportItem, type ModerationDeps } from './moderation.service';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

/** POST /api/reports: signed-in people report a review, a message or a profile (docs/product.md#reports-and-moderation). */
export function reportsRoutes(deps: ModerationDeps, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/reports',
      {
        schema: {
          tags: ['reports'],
          summary: 'Report a review, a message or a trainer’s profile to operators (once per person and item)',
          body: ZCreateReportRequest,
          response: { 201: ZCreateReportResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req, reply) => {
        const report = await reportItem(deps, callerOf(req), req.body);
        return reply.status(201).send({ message: REPORT_MSG.received, report: { _id: report.id } });
      },
    );
  };
}

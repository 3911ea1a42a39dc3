import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZConsoleReportDecisionResponse,
  ZConsoleReportsQuery,
  ZConsoleReportsResponse,
  ZErrorResponse,
  ZOperatorReason,
} from '@spotter/shared';
import { z } from 'zod';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { requireOperator, type ConsoleDeps } from '../console';
import { decideReport, listReports, type Decision, type ModerationDeps } from './moderation.service';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

const DECISIONS: Array<{ decision: Decision; summary: string }> = [
  { decision: 'hide', summary: 'Hide the reported item (only its author and operators see it) and close its open reports' },
  { decision: 'restore', summary: 'Show the reported item again to everyone and close its open reports' },
  {
    decision: 'dismiss',
    summary: 'Leave the reported item as it is (shown again if reports hid it) and close its open reports',
  },
];

/** The moderation queue under /api/console, operators only (docs/product.md#reports-and-moderation). */
export function consoleReportsRoutes(deps: ModerationDeps & ConsoleDeps, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const operatorOnly = requireOperator(deps, auth);

    r.get(
      '/console/reports',
      {
        schema: {
          tags: ['console'],
          summary: 'Reports, oldest first (the queue with status=open), with the item as it reads now; 100 at most',
          querystring: ZConsoleReportsQuery,
          response: { 200: ZConsoleReportsResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => ({ reports: await listReports(deps.db, req.query) }),
    );

    for (const { decision, summary } of DECISIONS) {
      r.post(
        `/console/reports/:id/${decision}`,
        {
          schema: {
            tags: ['console'],
            summary,
            params: z.object({ id: z.string() }),
            body: ZOperatorReason,
            response: { 200: ZConsoleReportDecisionResponse, ...errors },
          },
          preHandler: [operatorOnly, ...limits.writes],
        },
        async (req) => decideReport(deps, req.operator!.id, req.params.id, decision, req.body.reason, req.log),
      );
    }
  };
}

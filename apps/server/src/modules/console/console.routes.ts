import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAuditQuery,
  ZAuditResponse,
  ZConsoleLoginRequest,
  ZConsoleLoginResponse,
  ZConsoleMeResponse,
  ZConsoleWelcomeRequest,
  ZConsoleWelcomeResponse,
  ZErrorResponse,
} from '@spotter/shared';
import { z } from 'zod';
import { addRetryAfter } from '../../platform/failure-limiter';
import { createLoginThrottle } from '../../platform/login-throttle';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { auditCsv, listAudit, signIn, welcome, type ConsoleDeps } from './operators';
import { requireOperator } from './require-operator';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };
/** The CSV export's ceiling: the newest entries, this many at most. */
const CSV_MAX = 10_000;

/** The operator console's API under /api/console (docs/product.md#the-operator-console). */
export function consoleRoutes(deps: ConsoleDeps, auth: Auth, limits: Pick<RateLimits, 'perIp'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const operatorOnly = requireOperator(deps, auth);
    const throttle = createLoginThrottle();
    app.addHook('onError', addRetryAfter);

    r.post(
      '/console/welcome',
      {
        schema: {
          tags: ['console'],
          summary:
            'Set an operator’s password with the one-time link of `npm run operator -- add`; answers the second factor once',
          body: ZConsoleWelcomeRequest,
          response: { 200: ZConsoleWelcomeResponse, ...errors },
        },
        preHandler: [limits.perIp],
      },
      async (req) => welcome(deps, req.body),
    );

    r.post(
      '/console/login',
      {
        schema: {
          tags: ['console'],
          summary: 'Sign in to the console: password and an authenticator code (or a recovery code, once)',
          body: ZConsoleLoginRequest,
          response: { 200: ZConsoleLoginResponse, ...errors },
        },
        preHandler: [limits.perIp],
      },
      async (req) => {
        const attempt = throttle.begin(`operator|${req.body.email.trim().toLowerCase()}`, req.ip);
        const answer = await signIn(deps, req.body);
        attempt.succeeded();
        return answer;
      },
    );

    r.get(
      '/console/me',
      {
        schema: { tags: ['console'], summary: 'The signed-in operator', response: { 200: ZConsoleMeResponse, ...errors } },
        preHandler: operatorOnly,
      },
      async (req) => ({ operator: { _id: req.operator!.id, email: req.operator!.email } }),
    );

    r.get(
      '/console/audit',
      {
        schema: {
          tags: ['console'],
          summary: 'The audit log of operators’ actions, newest first, filtered by action, operator or target',
          querystring: ZAuditQuery.omit({ format: true }),
          response: { 200: ZAuditResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => ({ entries: await listAudit(deps, req.query) }),
    );

    r.get(
      '/console/audit.csv',
      {
        schema: {
          tags: ['console'],
          summary: 'The audit log as CSV, with the same filters (the newest 10,000 entries at most)',
          querystring: ZAuditQuery.omit({ format: true, limit: true }),
          response: { 200: z.string(), ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req, reply) => {
        const entries = await listAudit(deps, { ...req.query, limit: CSV_MAX });
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="spotter-audit-log.csv"')
          .send(auditCsv(entries));
      },
    );
  };
}

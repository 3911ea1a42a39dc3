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
  ZOperatorReason,
  ZPeopleQuery,
  ZPeopleResponse,
  ZPersonActionResponse,
  ZPersonPageResponse,
  ZConsoleBookingsQuery,
  ZConsoleBookingsResponse,
  ZConsoleLedgerResponse,
  ZConsoleRefundRequest,
  ZConsoleRefundResponse,
  ZConsoleDisputesQuery,
  ZConsoleDisputesResponse,
  ZConsoleDisputeDecisionResponse,
  ZDisputeDecision,
  ZIdempotencyKey,
} from '@spotter/shared';
import { z } from 'zod';
import { addRetryAfter } from '../../platform/failure-limiter';
import { createLoginThrottle } from '../../platform/login-throttle';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { auditCsv, listAudit, signIn, signOut, welcome } from './operators';
import { decideDispute, ledgerFindings, refundBooking, type MoneyDeps } from './money';
import { deletePerson, personPage, restorePerson, searchPeople, suspendPerson, type PeopleDeps } from './people';
import { requireOperator } from './require-operator';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };
/** The CSV export's ceiling: the newest entries, this many at most. */
const CSV_MAX = 10_000;

/** The operator console's API under /api/console (docs/product.md#the-operator-console). */
export function consoleRoutes(deps: PeopleDeps & MoneyDeps, auth: Auth, limits: Pick<RateLimits, 'perIp' | 'writes'>) {
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

    r.post(
      '/console/logout',
      {
        schema: {
          tags: ['console'],
          summary: 'Sign out of the console: every console session of this operator ends at once',
          response: { 204: z.null(), ...errors },
        },
        preHandler: [operatorOnly, ...limits.writes],
      },
      async (req, reply) => {
        await signOut(deps, req.operator!.id);
        return reply.status(204).send(null);
      },
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

    const personParams = z.object({ id: z.string().max(64) });

    r.get(
      '/console/people',
      {
        schema: {
          tags: ['console'],
          summary: 'People by name, e-mail or city, role and status; newest first, 50 at most',
          querystring: ZPeopleQuery,
          response: { 200: ZPeopleResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => ({ people: await searchPeople(deps, req.query) }),
    );

    r.get(
      '/console/people/:id',
      {
        schema: {
          tags: ['console'],
          summary: 'A person: their account, sessions, payments, reviews, reports against them and the audit entries about them',
          params: personParams,
          response: { 200: ZPersonPageResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => personPage(deps, req.params.id),
    );

    const actions = {
      suspend: {
        run: suspendPerson,
        summary:
          'Suspend: no sign-in (they read the reason), tokens and sockets ended everywhere, a trainer unlisted, upcoming paid sessions refunded in full',
      },
      restore: { run: restorePerson, summary: 'Restore a suspended account: they can sign in again' },
      delete: {
        run: deletePerson,
        summary: 'Delete as the owner would (personal data blanked), with the upcoming paid sessions refunded in full',
      },
    } as const;
    for (const [name, action] of Object.entries(actions)) {
      r.post(
        `/console/people/:id/${name}`,
        {
          schema: {
            tags: ['console'],
            summary: action.summary,
            params: personParams,
            body: ZOperatorReason,
            response: { 200: ZPersonActionResponse, ...errors, 409: ZErrorResponse },
          },
          preHandler: [operatorOnly, ...limits.writes],
        },
        async (req) => action.run(deps, { operatorId: req.operator!.id, id: req.params.id, reason: req.body.reason }),
      );
    }

    r.get(
      '/console/bookings',
      {
        schema: {
          tags: ['console'],
          summary:
            'Sessions by id, or a person’s name or e-mail, and status; newest first, 50 at most, with what was paid and refunded',
          querystring: ZConsoleBookingsQuery,
          response: { 200: ZConsoleBookingsResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => ({ bookings: await deps.money.searchBookings(req.query) }),
    );

    r.post(
      '/console/bookings/:id/refund',
      {
        schema: {
          tags: ['console'],
          summary:
            'Refund a session’s card payment in full or in part, at any time, with a reason (through the money layer: provider, ledger, mails)',
          params: z.object({ id: z.string().max(64) }),
          // draft-ietf-httpapi-idempotency-key-header: the same key is the same refund (docs/product.md#refunds-by-operators)
          headers: z.looseObject({ 'idempotency-key': ZIdempotencyKey.optional() }),
          body: ZConsoleRefundRequest,
          response: { 200: ZConsoleRefundResponse, ...errors, 409: ZErrorResponse },
        },
        preHandler: [operatorOnly, ...limits.writes],
      },
      async (req) =>
        refundBooking(deps, {
          operatorId: req.operator!.id,
          bookingId: req.params.id,
          amount: req.body.amount,
          reason: req.body.reason,
          idempotencyKey: req.headers['idempotency-key'],
        }),
    );

    r.get(
      '/console/ledger',
      {
        schema: {
          tags: ['console'],
          summary: 'The ledger check run now: every transaction balances, every payment and refund is booked',
          response: { 200: ZConsoleLedgerResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async () => ledgerFindings(deps),
    );

    r.get(
      '/console/disputes',
      {
        schema: {
          tags: ['console'],
          summary: 'Disputes of sessions: open ones oldest first (what the rules could not decide), decided ones newest first',
          querystring: ZConsoleDisputesQuery,
          response: { 200: ZConsoleDisputesResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => ({ disputes: await deps.money.listDisputes(req.query.status) }),
    );

    r.post(
      '/console/disputes/:id/decide',
      {
        schema: {
          tags: ['console'],
          summary: 'Decide an open dispute: a full or part refund through the money layer, or none, with a reason',
          params: z.object({ id: z.string().max(64) }),
          body: ZDisputeDecision,
          response: { 200: ZConsoleDisputeDecisionResponse, ...errors, 409: ZErrorResponse },
        },
        preHandler: [operatorOnly, ...limits.writes],
      },
      async (req) => decideDispute(deps, { operatorId: req.operator!.id, disputeId: req.params.id, decision: req.body }),
    );
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZErrorResponse,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZMessageResponse,
  ZOwnTrainerDataResponse,
  ZResetPasswordRequest,
  ZTrainerSignUpRequest,
  ZUserDataResponse,
  ZUserSignUpRequest,
  ZVerifyQuery,
  SERVER_MSG,
  type Role,
} from '@spotter/shared';
import { addRetryAfter } from '../../platform/failure-limiter';
import { createLoginThrottle } from '../../platform/login-throttle';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { callerOf } from '../../plugins/auth';
import type { AccountsService } from './accounts.service';
import { toOwnAccount, toOwnTrainer } from './accounts.service';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

export function accountsRoutes(service: AccountsService, auth: Auth, limit: Pick<RateLimits, 'perIp' | 'perEmail'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const plural: Record<Role, string> = { user: 'users', trainer: 'trainers' };
    const loginThrottle = createLoginThrottle();
    app.addHook('onError', addRetryAfter);

    for (const role of ['user', 'trainer'] as const) {
      r.post(
        `/${plural[role]}/register`,
        {
          schema: {
            tags: ['accounts'],
            summary: `Sign up as a ${role}; sends a verification mail`,
            body: role === 'trainer' ? ZTrainerSignUpRequest : ZUserSignUpRequest,
            response: { 201: ZMessageResponse, ...errors },
          },
          preHandler: [limit.perIp, limit.perEmail],
        },
        async (req, reply) => {
          const message = await service.register(role, req.body);
          return reply.status(201).send({ message });
        },
      );

      r.post(
        `/${plural[role]}/login`,
        {
          schema: {
            tags: ['accounts'],
            summary: `Log in as a ${role}`,
            body: ZLoginRequest,
            response: { 200: ZLoginResponse, ...errors },
          },
          // no plain per-e-mail limit here: a stranger's attempts must not lock the owner out
          preHandler: [limit.perIp],
        },
        async (req) => {
          const attempt = loginThrottle.begin(`${role}|${req.body.email}`, req.ip);
          const token = await service.login(role, req.body.email, req.body.password);
          attempt.succeeded();
          return { message: SERVER_MSG.loginOk, token };
        },
      );
    }

    r.get(
      '/userData',
      {
        schema: { tags: ['accounts'], summary: 'The logged-in user', response: { 200: ZUserDataResponse, ...errors } },
        preHandler: auth.requireAuth('user'),
      },
      async (req) => ({ userData: toOwnAccount(await service.getOwn(callerOf(req).id)) }),
    );

    r.get(
      '/trainerData',
      {
        schema: { tags: ['accounts'], summary: 'The logged-in trainer', response: { 200: ZOwnTrainerDataResponse, ...errors } },
        preHandler: auth.requireAuth('trainer'),
      },
      async (req) => ({ trainerData: toOwnTrainer(await service.getOwn(callerOf(req).id)) }),
    );

    r.get(
      '/verify',
      {
        schema: {
          tags: ['accounts'],
          summary: 'The link of the verification mail; redirects to the web app',
          querystring: ZVerifyQuery,
          response: { 302: z.null() },
        },
        // a GET that writes: a verified trainer is listed, and the answer waits for that as a write's does
        config: { writes: true },
      },
      async (req, reply) => {
        const verified = await service.verifyEmail(req.query.token);
        if (!verified) return reply.redirect('/verification/failed', 302);
        const already = verified.already ? '&already=1' : '';
        return reply.redirect(`/verification/success?role=${verified.role}${already}`, 302);
      },
    );

    r.post(
      '/verify/resend',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Send the verification mail again',
          response: { 200: ZMessageResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), limit.perIp, limit.perEmail],
      },
      async (req) => ({ message: await service.resendVerification(callerOf(req).id) }),
    );

    r.post(
      '/password/forgot',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail a password-reset link (same answer whether or not the account exists)',
          body: ZForgotPasswordRequest,
          response: { 200: ZMessageResponse, ...errors },
        },
        preHandler: [limit.perIp, limit.perEmail],
      },
      async (req) => ({ message: await service.requestPasswordReset(req.body.role, req.body.email) }),
    );

    r.post(
      '/password/reset',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Set a new password with the mailed link',
          body: ZResetPasswordRequest,
          response: { 200: ZMessageResponse, ...errors },
        },
        preHandler: [limit.perIp],
      },
      async (req) => ({ message: await service.resetPassword(req.body.token, req.body.password) }),
    );
  };
}

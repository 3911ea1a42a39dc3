import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PACKAGE_MSG,
  ZBalanceRefundResponse,
  ZBalancesResponse,
  ZErrorResponse,
  ZIdParam,
  ZPackagesResponse,
  ZPutPackagesRequest,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { BookingsContext } from './context';
import { listBalances, refundRest, setPackages } from './packages';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};

/** Packages a trainer sells, and the balances users bought (docs/product.md#packages). */
export function packagesRoutes(ctx: BookingsContext, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.put(
      '/trainer/packages',
      {
        schema: {
          tags: ['bookings'],
          summary: 'Set the packages you sell (up to 3); balances already bought keep what they were sold as (trainers only)',
          body: ZPutPackagesRequest,
          response: { 200: ZPackagesResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => setPackages(ctx, { caller: callerOf(req), input: req.body }),
    );
    r.get(
      '/balances',
      {
        schema: {
          tags: ['payments'],
          summary: 'Your package balances: money left, sessions left, expiry (users only)',
          response: { 200: ZBalancesResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
      },
      async (req) => listBalances(ctx, { caller: req.caller }),
    );
    r.post(
      '/balances/:trainerId/refund',
      {
        schema: {
          tags: ['payments'],
          summary: 'Refund the unused balance of your package with a trainer through the payment provider (users only)',
          params: ZIdParam(PACKAGE_MSG.noBalance, 'trainerId'),
          response: { 200: ZBalanceRefundResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req) => refundRest(ctx, { caller: req.caller, trainerId: req.params.trainerId }),
    );
  };
}

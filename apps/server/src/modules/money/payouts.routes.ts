import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PAYOUT_MSG, ZErrorResponse, ZPayoutAddressRequest, ZPayoutAddressResponse, ZPayoutsResponse } from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { PayoutsService } from './payouts.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 429: ZErrorResponse };

/** A trainer's payout address and payout history (docs/decisions/042-money-ledger.md#payouts). */
export function payoutsRoutes(service: PayoutsService, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const trainerOnly = auth.requireAuth('trainer', PAYOUT_MSG.onlyTrainers);

    r.get(
      '/trainer/payout',
      {
        schema: {
          tags: ['payments'],
          summary: 'Your payout address: the PayPal account’s e-mail your earnings are paid to (null: none yet) (trainers)',
          response: { 200: ZPayoutAddressResponse, ...errors },
        },
        preHandler: trainerOnly,
      },
      async (req) => service.payoutAddress(callerOf(req).id),
    );

    r.put(
      '/trainer/payout',
      {
        schema: {
          tags: ['payments'],
          summary: 'Set your payout address: the PayPal account’s e-mail your payable earnings are paid to (trainers)',
          body: ZPayoutAddressRequest,
          response: { 200: ZPayoutAddressResponse, ...errors },
        },
        preHandler: [trainerOnly, ...limits.writes],
      },
      async (req) => service.setPayoutAddress(callerOf(req).id, req.body.email),
    );

    r.get(
      '/payouts',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Your payouts, newest first: amount, status (pending, sent, paid, returned), sessions paid, address (trainers)',
          response: { 200: ZPayoutsResponse, ...errors },
        },
        preHandler: trainerOnly,
      },
      async (req) => service.listPayouts(callerOf(req).id),
    );
  };
}

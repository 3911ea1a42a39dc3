import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZConsoleOverviewResponse, ZErrorResponse } from '@spotter/shared';
import type { Auth } from '../../plugins/auth';
import type { ConsoleDeps } from './operators';
import { overview } from './overview';
import { requireOperator } from './require-operator';

/** GET /api/console/overview: the console's dashboard of the last 30 days (docs/product.md#the-overview). */
export function overviewRoutes(deps: ConsoleDeps, auth: Auth) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/console/overview',
      {
        schema: {
          tags: ['console'],
          summary:
            'The last 30 days by UTC day: bookings, cancellations, money paid, refunded and paid out, fees, sign-ups; and what waits (open reports and disputes, certificates to verify)',
          response: { 200: ZConsoleOverviewResponse, 401: ZErrorResponse, 403: ZErrorResponse },
        },
        preHandler: requireOperator(deps, auth),
      },
      async () => overview(deps),
    );
  };
}

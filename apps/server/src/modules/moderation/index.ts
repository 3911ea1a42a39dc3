// What app.ts and other modules may use of the moderation module (docs/architecture.md#routes-services-repos).
import type { FastifyInstance } from 'fastify';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import type { ConsoleDeps } from '../console';
import { consoleReportsRoutes } from './console-reports.routes';
import type { ModerationDeps } from './moderation.service';
import { reportsRoutes } from './reports.routes';

export { listReports } from './moderation.service';

/** Reports (POST /api/reports) and the operators' queue (docs/product.md#reports-and-moderation). */
export function moderationRoutes(deps: ModerationDeps & ConsoleDeps, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    await app.register(reportsRoutes(deps, auth, limits));
    await app.register(consoleReportsRoutes(deps, auth, limits));
  };
}

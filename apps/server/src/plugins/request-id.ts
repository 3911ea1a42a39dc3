import type { FastifyInstance } from 'fastify';

/**
 * Every answer carries its request id in `X-Request-Id`, the `reqId` of its log lines (see
 * `requestIdOptions` in lib/logger.ts), so a person or an operator can quote it.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
}

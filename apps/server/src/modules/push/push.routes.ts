import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDeletePushSubscriptionRequest,
  ZErrorResponse,
  ZPushConfig,
  ZPushSubscriptionRequest,
  ZPushSubscriptionResponse,
  ZPushSubscriptionsResponse,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { PushService } from './push.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 429: ZErrorResponse, 503: ZErrorResponse };

/** Web Push (docs/product.md#notifications): the server's public key, and each signed-in person's devices. */
export function pushRoutes(service: PushService, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const signedIn = auth.requireAuth();
    r.get(
      '/push/config',
      {
        schema: {
          tags: ['push'],
          summary: 'The VAPID public key browsers subscribe with (null: push is off on this server)',
          response: { 200: ZPushConfig },
        },
      },
      async () => service.config(),
    );
    r.get(
      '/push/subscriptions',
      {
        schema: {
          tags: ['push'],
          summary: 'Your devices that get notifications',
          response: { 200: ZPushSubscriptionsResponse, ...errors },
        },
        preHandler: signedIn,
      },
      async (req) => ({ subscriptions: await service.list(callerOf(req).id) }),
    );
    r.post(
      '/push/subscriptions',
      {
        schema: {
          tags: ['push'],
          summary: 'Get notifications on this device (a PushSubscription, and the kinds it wants)',
          body: ZPushSubscriptionRequest,
          response: { 200: ZPushSubscriptionResponse, ...errors },
        },
        preHandler: [signedIn, ...limits.writes],
      },
      async (req) => {
        const caller = callerOf(req);
        return { subscription: await service.subscribe({ id: caller.id, role: caller.role }, req.body) };
      },
    );
    r.delete(
      '/push/subscriptions',
      {
        schema: {
          tags: ['push'],
          summary: 'No more notifications on this device',
          body: ZDeletePushSubscriptionRequest,
          response: { 204: z.null(), ...errors },
        },
        preHandler: [signedIn, ...limits.writes],
      },
      async (req, reply) => {
        await service.unsubscribe(callerOf(req).id, req.body.endpoint);
        return reply.status(204).send(null);
      },
    );
  };
}

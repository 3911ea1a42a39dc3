import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZErrorResponse, ZMessageResponse, ZNewsletterRequest } from '@spotter/shared';
import type { NewsletterService } from './newsletter.service';

export function newsletterRoutes(service: NewsletterService, perIp: preHandlerAsyncHookHandler) {
  return async function (app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/newsletter',
      {
        schema: {
          tags: ['newsletter'],
          summary: 'Subscribe to the newsletter',
          body: ZNewsletterRequest,
          response: { 200: ZMessageResponse, 400: ZErrorResponse, 429: ZErrorResponse },
        },
        preHandler: perIp,
      },
      async (req) => ({ message: await service.subscribe(req.body.email) }),
    );
  };
}

import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NEWSLETTER_MSG, ZErrorResponse, ZMessageResponse, ZNewsletterRequest } from '@spotter/shared';
import type { Db } from '../../db/client';
import { newsletterSubscribers } from '../../db/schema';

/** Stores the address once; a repeat is a success too (DECISIONS 24). */
export function newsletterRoutes(db: Db, perIp: preHandlerAsyncHookHandler) {
  return async function (app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/newsletter',
      {
        schema: { tags: ['newsletter'], summary: 'Subscribe to the newsletter', body: ZNewsletterRequest, response: { 200: ZMessageResponse, 400: ZErrorResponse, 429: ZErrorResponse } },
        preHandler: perIp,
      },
      async (req) => {
        await db.insert(newsletterSubscribers).values({ email: req.body.email }).onConflictDoNothing();
        return { message: NEWSLETTER_MSG.subscribed };
      },
    );
  };
}

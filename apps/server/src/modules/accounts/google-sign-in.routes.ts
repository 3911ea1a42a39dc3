import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAuthConfigResponse, ZErrorResponse, ZGoogleSignInRequest, ZLoginResponse } from '@spotter/shared';
import type { GoogleSignInService } from './google-sign-in.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 429: ZErrorResponse, 502: ZErrorResponse, 503: ZErrorResponse };

/** `GET /auth/config` and `POST /auth/google` (docs/product.md#google-sign-in). */
export function googleSignInRoutes(service: GoogleSignInService, perIp: preHandlerAsyncHookHandler) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/auth/config',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Which sign-in providers this server accepts (the Google client id, or null)',
          response: { 200: ZAuthConfigResponse },
        },
      },
      async (_req, reply) => {
        // configuration changes only with a restart; a short cache spares every login screen a request
        reply.header('Cache-Control', 'public, max-age=300');
        return { googleClientId: service.clientId };
      },
    );

    r.post(
      '/auth/google',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign in (or up) with a Google ID token; answers like a login',
          body: ZGoogleSignInRequest,
          response: { 200: ZLoginResponse, ...errors },
        },
        preHandler: [perIp],
      },
      async (req) => service.signIn(req.body.role, req.body.credential),
    );
  };
}

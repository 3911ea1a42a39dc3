import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { createRateLimiter } from './lib/rate-limiter';
import { createTokenService } from './lib/tokens';
import { createAuth } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerWeb } from './plugins/web';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { createAccountsService } from './modules/accounts/accounts.service';
import { createMailer, type Mailer } from './modules/mail/mail.service';
import { avatarsRoutes } from './modules/avatars/avatars.routes';
import { settingsRoutes } from './modules/accounts/settings.routes';
import { createSettingsService } from './modules/accounts/settings.service';
import { imagesRoutes } from './modules/images/images.routes';
import { createImagesService } from './modules/images/images.service';
import { favouritesRoutes } from './modules/favourites/favourites.routes';
import { createFavouritesService } from './modules/favourites/favourites.service';
import { newsletterRoutes } from './modules/newsletter/newsletter.routes';
import { reviewsRoutes } from './modules/reviews/reviews.routes';
import { createReviewsService } from './modules/reviews/reviews.service';
import { trainersRoutes } from './modules/trainers/trainers.routes';
import { createTrainersService } from './modules/trainers/trainers.service';

export const BODY_LIMIT = 100 * 1024;

export type AppDeps = { config: Config; database: Database; mailer?: Mailer; logger?: boolean };

/** Builds the whole app around a database; never listens (main.ts and tests do). */
export async function buildApp({ config, database, mailer, logger = true }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: config.logLevel } : false,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.env === 'production' ? 'loopback' : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // how long the server spent on an API answer, for benchmarks and browser dev tools
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/')) reply.header('Server-Timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.env === 'production',
  });
  await app.register(fastifyCors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
  });
  await app.register(fastifyCompress, { global: true, threshold: 1024 });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Spotter API', version: '0.1.0', description: 'Find a personal trainer. Errors are { message, statusCode, errors? }.' },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const tokens = createTokenService(config.jwtSecret);
  const auth = createAuth(database.db, tokens);
  const mail = mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const limit = {
    perIp: createRateLimiter({ max: config.rateLimitMax, windowMs: 60_000, key: (req) => req.ip }),
    perEmail: createRateLimiter({
      max: Math.max(5, Math.floor(config.rateLimitMax / 2)),
      windowMs: 60_000,
      key: (req) => {
        const email = (req.body as { email?: unknown } | undefined)?.email;
        return typeof email === 'string' ? email.toLowerCase() : req.caller?.id;
      },
    }),
  };

  const accounts = createAccountsService({ db: database.db, tokens, mailer: mail, publicUrl: config.publicUrl, log: app.log });

  await app.register(
    async (api) => {
      const r = api.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
      r.get(
        '/health',
        { schema: { tags: ['health'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } } },
        async () => ({ status: 'ok' as const }),
      );
      r.get(
        '/health/ready',
        {
          schema: {
            tags: ['health'],
            summary: 'Readiness: the database answers',
            response: { 200: z.object({ status: z.literal('ready'), database: z.string() }), 503: z.object({ status: z.string(), database: z.string() }) },
          },
        },
        async (_req, reply) => {
          try {
            await database.ping();
            return { status: 'ready' as const, database: database.kind };
          } catch {
            return reply.status(503).send({ status: 'unavailable', database: database.kind });
          }
        },
      );
      await api.register(accountsRoutes(accounts, auth, limit));
      await api.register(trainersRoutes(createTrainersService({ db: database.db })));
      await api.register(reviewsRoutes(createReviewsService({ db: database.db }), auth));
      await api.register(favouritesRoutes(createFavouritesService({ db: database.db }), auth));
      await api.register(newsletterRoutes(database.db, limit.perIp));
      await api.register(avatarsRoutes);
      const images = createImagesService({ db: database.db });
      await api.register(imagesRoutes(images, auth));
      await api.register(settingsRoutes(createSettingsService({ db: database.db, tokens, images, accounts }), auth));
    },
    { prefix: '/api' },
  );

  await registerWeb(app, config.webDist);
  return app;
}

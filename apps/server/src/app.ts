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
import { rateLimits } from './platform/rate-limits';
import { createClock } from './platform/clock';
import { durableJobs } from './platform/jobs';
import { logging, loggerOptions, requestIdOptions } from './platform/logging';
import { createTokenService } from './lib/tokens';
import { createAuth } from './plugins/auth';
import { CHANNELS, eventsPlugin } from './platform/events';
import { cachesPlugin } from './platform/caches';
import { settledWritesPlugin } from './platform/settled-writes';
import { clientErrorHandler, errorHandling, frameworkErrors, registerApiNotFound } from './plugins/errors';
import { registerAbsoluteUrls } from './plugins/absolute-urls';
import { registerMetrics } from './plugins/metrics';
import { registerNulGuard } from './plugins/nul-guard';
import { registerEmptyJsonBody } from './plugins/empty-json-body';
import { registerPersonalNoStore } from './plugins/personal-no-store';
import { testClockRoutes } from './plugins/test-clock';
import { registerWeb } from './plugins/web';
import {
  accountsRoutes,
  createAccountsService,
  createGoogleSignInService,
  createTokenStates,
  googleSignInRoutes,
  type OnDeleted,
} from './modules/accounts';
import { avatarsRoutes } from './modules/avatars';
import { consoleRoutes, overviewRoutes, type MoneyHooks, type PeopleHooks } from './modules/console';
import { listReports, moderationRoutes } from './modules/moderation';
import {
  bookingsModule,
  createBookingsServices,
  decideDispute,
  listDisputes,
  refundByOperator,
  searchBookingsForOperators,
} from './modules/bookings';
import { checkLedger, moneyModule } from './modules/money';
import { certificatesModule, purgeCertificatesOf } from './modules/certificates';
import { chatsModule } from './modules/chats';
import { createFavouritesService, favouritesRoutes } from './modules/favourites';
import { createPushService, pushRoutes } from './modules/push';
import { createImagesService, imagesRoutes } from './modules/images';
import { createMailer, type Mailer } from './modules/mail';
import { createNewsletterService, newsletterRoutes } from './modules/newsletter';
import { createReviewsService, reviewsRoutes } from './modules/reviews';
import { createSettingsService, recordSignUpWeight, settingsRoutes } from './modules/settings';
import { createTrainersService, trainersRoutes } from './modules/trainers';

const BODY_LIMIT = 100 * 1024;

/** `logStream` receives the log lines instead of stdout (tests read what is logged). */
type AppDeps = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: boolean;
  logStream?: { write(line: string): void };
};

/** Builds the whole app around a database; never listens (main.ts and tests do). */
export async function buildApp({ config, database, mailer, logger = true, logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? loggerOptions(config.logLevel, logStream) : false,
    // an incoming X-Request-Id (from the load balancer) when sane, else a new one; echoed in the answer
    ...requestIdOptions(),
    bodyLimit: BODY_LIMIT,
    // `/api/trainerData/` is `/api/trainerData`, not the `:id` route with an empty id
    routerOptions: { ignoreTrailingSlash: true },
    // errors met before any route runs answer in the one error shape too
    frameworkErrors,
    clientErrorHandler,
    // X-Forwarded-For is believed only from TRUST_PROXY's addresses; by default from nobody
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    // slow clients (slowloris) lose their socket: headers, a whole request, silence, an idle keep-alive
    // each have a deadline; a WebSocket is past all of them once upgraded (it has its own heartbeat)
    http: {
      headersTimeout: config.timeouts.headersMs,
      requestTimeout: config.timeouts.requestMs,
      // how often Node looks for requests past those deadlines (30 s by default)
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.timeouts.headersMs / 2)),
    },
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandling);
  registerNulGuard(app);
  registerEmptyJsonBody(app);
  registerPersonalNoStore(app);
  const metrics = registerMetrics(app, { env: config.env, token: config.metricsToken, database });
  await app.register(logging);
  registerAbsoluteUrls(app, config.publicUrl);
  // how long the server spent on an API answer, for benchmarks and browser dev tools; off in
  // production unless SERVER_TIMING=true, since timings help whoever probes the server
  if (config.serverTiming) {
    app.addHook('onSend', async (req, reply) => {
      if (req.url.startsWith('/api/')) reply.header('Server-Timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
    });
  }

  // third-party hosts only for what is configured (docs/product.md#google-sign-in, docs/product.md#booking-and-payment,
  // docs/product.md#self-hosted-assets): Google's sign-in script, button frame and styles; PayPal's checkout buttons
  const google = config.google.clientId ? ['https://accounts.google.com'] : [];
  const paypal = config.paypal.clientId ? ['https://www.paypal.com', 'https://*.paypal.com'] : [];
  const frames = [...google, ...paypal];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...google, ...paypal],
        styleSrc: ["'self'", "'unsafe-inline'", ...(google.length ? ['https://accounts.google.com/gsi/style'] : [])],
        // pictures are absolute URLs on PUBLIC_URL, which may not be the page's origin; Google's accounts bring theirs
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          new URL(config.publicUrl).origin,
          ...(google.length ? ['https://*.googleusercontent.com'] : []),
          ...(paypal.length ? ['https://*.paypal.com', 'https://*.paypalobjects.com'] : []),
        ],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...google, ...paypal],
        ...(frames.length ? { frameSrc: frames } : {}),
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Google's and PayPal's popups report back to their opener; without them the default stays
    crossOriginOpenerPolicy: { policy: frames.length ? 'same-origin-allow-popups' : 'same-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.env === 'production',
  });
  await app.register(fastifyCors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    // everything docs/product.md#api-contract calls, with the raw token in Authorization and JSON bodies
    // (and an operator's refund its Idempotency-Key: docs/product.md#refunds-by-operators)
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  });
  await app.register(fastifyCompress, { global: true, threshold: 1024 });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Spotter API',
        version: '0.1.0',
        description:
          'Find a personal trainer. Errors are { message, statusCode, code, errors? }: `code` is a stable SCREAMING_SNAKE name from one list (VALIDATION_FAILED, UNAUTHENTICATED, TOKEN_INVALID, NOT_FOUND, EMAIL_TAKEN, SLOT_TAKEN, RATE_LIMITED…), each with one status; branch on it, not on the message, which is for people.',
      },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  // the API map is off in production unless API_DOCS=true
  if (config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const tokens = createTokenService(config.jwtSecret);
  // the database's channels, then what they drop (docs/caching.md): the token check's account
  // states (docs/decisions/023-token-check-cache.md), the public and personal read caches, and a
  // write's answer that waits until this process has seen its changes
  await app.register(eventsPlugin, { database });
  const tokenStates = createTokenStates(database.db);
  await app.events.subscribe(CHANNELS.account, (id) => tokenStates.forget(id), tokenStates.clear);
  await app.register(cachesPlugin);
  await app.register(settledWritesPlugin, { database });
  const auth = createAuth(database.db, tokens, tokenStates);
  const mail = mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  // the one clock of bookings, payments, payouts and jobs; tests may move it (TEST_CLOCK, docs/testing.md#the-test-clock)
  const clock = createClock({ test: config.testClock });
  // durable jobs (booking holds, reminders, booking mails): polled while the app runs, stopped before the database closes
  await app.register(durableJobs, { db: database.db, now: clock.now });
  const jobs = app.jobs;
  // per IP, e-mail and account, in Redis when REDIS_URL is set (docs/decisions/003-rate-limits.md)
  await app.register(rateLimits, { max: config.rateLimitMax, redisUrl: config.redis.url, redisPrefix: config.redis.prefix });
  const limits = app.rateLimits;

  // Web Push (docs/product.md#notifications): modules queue a notification in their transactions; its
  // durable job encrypts and sends it to each device that wants its kind
  const push = createPushService({ db: database.db, jobs, log: app.log, config, now: clock.now });

  // reviews read verified sessions from the bookings module's service
  // PGlite runs one statement at a time; PostgreSQL's pool runs a few batched reads side by side
  const concurrentReads = database.kind === 'postgres' ? 3 : 1;
  const bookingServices = createBookingsServices({
    database,
    mailer: mail,
    config,
    jobs,
    now: clock.now,
    log: app.log,
    events: app.events,
    concurrentReads,
    notify: push.notify,
  });
  // a trainer's deletion (or retirement) enqueues, in its transaction, the bookings module's job that
  // refunds their upcoming sessions (docs/decisions/042-money-ledger.md#a-trainer-who-leaves): a
  // hook, as bookings imports accounts and not the other way round
  const onDeleted: OnDeleted = async (tx, account) => {
    if (account.role !== 'trainer') return;
    await bookingServices.trainerLeft(tx, account.id);
    await purgeCertificatesOf(jobs, tx, account.id, clock.now());
  };
  // a new account's sign-up weight is the first point of its weight chart (the settings module's)
  const accounts = createAccountsService({
    db: database.db,
    tokens,
    mailer: mail,
    publicUrl: config.publicUrl,
    log: app.log,
    onRegistered: recordSignUpWeight,
    onDeleted,
  });
  const images = createImagesService({ db: database.db });
  const favourites = createFavouritesService({ db: database.db });
  // photos nobody uses any more (replaced, or uploaded and never set) are removed every hour
  let imageSweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    imageSweep = setInterval(
      () => {
        images.sweepUnreferenced().catch((err: unknown) => app.log.warn({ err }, 'image sweep failed'));
      },
      60 * 60 * 1000,
    ).unref();
  });
  app.addHook('onClose', async () => clearInterval(imageSweep));

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
            response: {
              200: z.object({ status: z.literal('ready'), database: z.string() }),
              503: z.object({ status: z.string(), database: z.string() }),
            },
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
      await api.register(accountsRoutes(accounts, auth, limits));
      await api.register(
        googleSignInRoutes(
          createGoogleSignInService({ db: database.db, tokens, ...config.google, onRegistered: recordSignUpWeight, onDeleted }),
          limits.perIp,
        ),
      );
      await api.register(
        trainersRoutes(createTrainersService({ db: database.db, bookings: bookingServices.context, concurrentReads })),
      );
      await api.register(
        reviewsRoutes(
          createReviewsService({
            db: database.db,
            accounts,
            bookings: bookingServices.bookings,
            concurrentReads,
          }),
          auth,
          limits,
        ),
      );
      await api.register(favouritesRoutes(favourites, auth, limits));
      await api.register(newsletterRoutes(createNewsletterService({ db: database.db }), limits.perIp));
      await api.register(
        chatsModule({
          database,
          tokens,
          auth,
          mailer: mail,
          config,
          limits,
          countSockets: metrics.countSockets,
          jobs,
          notify: push.notify,
        }),
      );
      await api.register(pushRoutes(push, auth, limits));
      await api.register(
        bookingsModule({
          database,
          auth,
          mailer: mail,
          config,
          jobs,
          services: bookingServices,
          limits,
        }),
      );
      // trainers paid out: payout address and history, and the payout jobs (docs/decisions/042-money-ledger.md#payouts)
      const { provider, providers } = bookingServices.context;
      await api.register(
        moneyModule({
          database,
          auth,
          mailer: mail,
          config,
          jobs,
          payments: { provider, providers },
          limits,
          countDifferences: metrics.ledgerDifferences,
          countRefusedBatch: metrics.payoutBatchRefused,
          now: clock.now,
          notify: push.notify,
        }),
      );
      if (clock.advance) await api.register(testClockRoutes({ now: clock.now, advance: clock.advance }, jobs));
      await api.register(avatarsRoutes);
      const settings = createSettingsService({ db: database.db, tokens, accounts, images, favourites });
      // the operator console's API (docs/product.md#the-operator-console); it acts on people through
      // the modules that own their data: bookings refunds their sessions, settings deletes an account
      const people: PeopleHooks = {
        accountLeft: (tx, who, reason) => bookingServices.accountLeft(tx, who, reason),
        deleteAccount: (tx, id) => settings.removeAccount(id, tx),
        reportsAbout: (subjectId) => listReports(database.db, { subjectId }),
      };
      const money: MoneyHooks = {
        searchBookings: (f) => searchBookingsForOperators(database.db, f),
        refundBooking: (input, audit) => refundByOperator(bookingServices.context, input, audit, input),
        ledger: () => checkLedger({ db: database.db, now: clock.now }),
        listDisputes: (status) => listDisputes(bookingServices.context, status),
        decideDispute: (d, audit) => decideDispute(bookingServices.context, d, audit),
      };
      await api.register(consoleRoutes({ db: database.db, tokens, now: clock.now, people, money }, auth, limits));
      await api.register(moderationRoutes({ db: database.db, tokens, now: clock.now, mailer: mail }, auth, limits));
      const operators = { db: database.db, tokens, now: clock.now };
      await api.register(certificatesModule({ console: operators, auth, limits, jobs, mailer: mail, images, config }));
      await api.register(overviewRoutes({ db: database.db, tokens, now: clock.now }, auth));
      await api.register(imagesRoutes(images, auth, limits));
      await api.register(settingsRoutes(settings, auth, limits));
    },
    { prefix: '/api' },
  );

  await registerApiNotFound(app);
  // a visitor's rendered page is kept until a write changes what it shows, as the read cache's answers are
  await registerWeb(app, config.webDist, { catalogueGeneration: app.readCache.generation });
  return app;
}

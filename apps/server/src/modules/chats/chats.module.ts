import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { CHAT_LIMITS, CHAT_MSG } from '@spotter/shared';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { createNotifyBus } from '../../lib/notify-bus';
import type { RateLimits } from '../../lib/rate-limiter';
import type { TokenService } from '../../lib/tokens';
import type { Auth } from '../../plugins/auth';
import type { Mailer } from '../mail/mail.service';
import { chatsRoutes } from './chats.routes';
import { ACCOUNT_CHANNEL, CHAT_CHANNEL, createChatsService, sweepUnreadChats } from './chats.service';
import { createChatHub, type HubOptions } from './chats.ws';

const SWEEP_EVERY_MS = 60_000;

type ChatsDeps = {
  database: Database;
  tokens: TokenService;
  auth: Auth;
  mailer: Mailer;
  /** `rateLimitMax` raises the send limit above 30 a minute (tests and benchmarks set it high). */
  config: Pick<Config, 'publicUrl' | 'rateLimitMax'>;
  hub?: HubOptions;
  limits: Pick<RateLimits, 'limit' | 'writes'>;
};

/**
 * Chat: REST for sending, history and catch-up, and the WebSocket at /ws for pushes. A message is
 * committed, then NOTIFYed; every process LISTENs and pushes to its own sockets, so N processes
 * behind a load balancer behave as one. Also runs the unread-mail sweep every minute.
 */
export function chatsModule(deps: ChatsDeps) {
  return async function (app: FastifyInstance) {
    const { database, auth, config } = deps;
    const service = createChatsService({ db: database.db });
    const hub = createChatHub({ db: database.db, tokens: deps.tokens, service, log: app.log, options: deps.hub });
    // before the WebSocket plugin's own preClose (which closes sockets without a code): 1012, reconnect
    app.addHook('preClose', async () => hub.closeForRestart());
    // registered here rather than app-wide: only this module speaks WebSocket
    await app.register(fastifyWebsocket, { options: { maxPayload: CHAT_LIMITS.frameMaxBytes } });

    const bus = createNotifyBus(database, app.log);
    await bus.subscribe(
      CHAT_CHANNEL,
      (p) => hub.onChatEvent(p),
      () => hub.resync(),
    );
    await bus.subscribe(ACCOUNT_CHANNEL, (p) => hub.onAccountEvent(p));

    const sweep = setInterval(() => {
      sweepUnreadChats({ db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl, log: app.log }).catch((err) =>
        app.log.error({ err }, 'unread chat sweep failed'),
      );
    }, SWEEP_EVERY_MS);
    sweep.unref();

    app.addHook('onClose', async () => {
      clearInterval(sweep);
      hub.close();
      await bus.close();
    });

    // per account, one budget for `/chats` and `/chats/`; per IP like the other writes
    const limitSends = deps.limits.limit({
      name: 'chat-sends',
      max: Math.max(CHAT_LIMITS.sendsPerMinute, config.rateLimitMax),
      windowMs: 60_000,
      key: (req) => req.caller?.id,
      message: () => CHAT_MSG.tooMany,
    });
    const writes = deps.limits.writes;
    await app.register(chatsRoutes(service, hub, auth, { limitSends: [limitSends, ...writes], writes }));
  };
}

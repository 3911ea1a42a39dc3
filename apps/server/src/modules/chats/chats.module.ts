import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import { CHAT_LIMITS, CHAT_MSG } from '@spotter/shared';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { createClientAddress } from '../../platform/client-address';
import type { RateLimits } from '../../platform/rate-limits';
import type { TokenService } from '../../lib/tokens';
import type { Auth } from '../../plugins/auth';
import { bookingViewsForPush } from '../bookings';
import type { Mailer } from '../mail';
import type { JobRunner } from '../../platform/jobs';
import type { PushNotify } from '../push';
import { registerChatPush } from './chat-push';
import { markDelivered } from './chats.repo';
import { chatsRoutes } from './chats.routes';
import { createChatsService, sweepUnreadChats } from './chats.service';
import { createChatHub, type HubOptions } from './chats.ws';

const SWEEP_EVERY_MS = 60_000;

type ChatsDeps = {
  database: Database;
  tokens: TokenService;
  auth: Auth;
  mailer: Mailer;
  /** `rateLimitMax` raises the send limit above 30 a minute (tests and benchmarks set it high). */
  config: Pick<Config, 'publicUrl' | 'rateLimitMax' | 'trustProxy' | 'ws'>;
  hub?: HubOptions;
  limits: Pick<RateLimits, 'limit' | 'writes'>;
  /** Told how to count this process's open chat sockets (the metrics' `spotter_websockets_open`). */
  countSockets?: (count: () => number) => void;
  jobs: JobRunner;
  /** The push module's: a message's notification to its recipient's devices (docs/product.md#notifications). */
  notify: PushNotify;
};

/** How often the messages this process pushed to their recipients' sockets are marked delivered, in one statement. */
const DELIVERED_FLUSH_MS = 1000;

/**
 * An HTTP answer written on a socket that asked to upgrade, which is then destroyed. Node has taken
 * its own listeners off such a socket: without ours, a client resetting it would be an unhandled
 * 'error' (the process would die), and one that never closes its side would hold it forever.
 */
function refuseUpgrade(socket: Duplex, status: 404 | 429 | 503, reason: string) {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) return socket.destroy();
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Chat: REST for sending, history and catch-up, and the WebSocket at /ws for pushes. A message is
 * committed, then NOTIFYed; every process LISTENs and pushes to its own sockets, so N processes
 * behind a load balancer behave as one. Also runs the unread-mail sweep every minute.
 */
export function chatsModule(deps: ChatsDeps) {
  return async function (app: FastifyInstance) {
    const { database, auth, config } = deps;
    const service = createChatsService({ db: database.db, events: app.events });
    const hub = createChatHub({
      db: database.db,
      tokens: deps.tokens,
      service,
      log: app.log,
      options: { ...config.ws, ...deps.hub },
      bookingViews: (id) => bookingViewsForPush(database.db, id, new Date()),
      onDelivered: (id) => delivered.add(id),
    });
    // messages this process pushed to an open socket of their recipient: marked delivered in batches,
    // well within the push job's grace (chats.repo.ts PUSH_GRACE), so they get no Web Push
    const delivered = new Set<string>();
    const flushDelivered = () => {
      if (!delivered.size) return Promise.resolve();
      const ids = [...delivered];
      delivered.clear();
      return markDelivered(database.db, ids).catch((err) => app.log.warn({ err }, 'marking messages delivered failed'));
    };
    const deliveredTimer = setInterval(() => void flushDelivered(), DELIVERED_FLUSH_MS);
    deliveredTimer.unref();
    registerChatPush(deps.jobs, database.db, deps.notify);
    const clientAddress = createClientAddress(config.trustProxy);
    deps.countSockets?.(() => hub.stats().sockets);

    // The WebSocket handshake is answered straight from the HTTP server's `upgrade` event, not routed
    // through fastify: a routed upgrade keeps its request, reply and logger alive as long as the socket
    // (about 5 KB each; 10,000 sockets held 127 MiB of heap instead of 78, bench/chat.mjs). Only this
    // path upgrades; anything else asking to is answered 404.
    const path = `${app.prefix}/ws`;
    // pings are answered by the hub, within each socket's budget
    const wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: CHAT_LIMITS.frameMaxBytes,
      autoPong: false,
    });
    let accepting = true;
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = req.url ?? '';
      const q = url.indexOf('?');
      const asked = q === -1 ? url : url.slice(0, q);
      // a trailing slash is the same address, as on every route (`ignoreTrailingSlash`)
      if (asked !== path && asked !== `${path}/`) return refuseUpgrade(socket, 404, 'Not Found');
      if (!accepting) return refuseUpgrade(socket, 503, 'Service Unavailable');
      // sockets that never authenticate are capped before the handshake costs anything
      // (docs/decisions/034-socket-and-sign-in-limits.md)
      const from = clientAddress(req);
      const refusal = hub.refusal(from);
      if (refusal) {
        app.log.debug({ from, refusal }, 'chat socket refused: too many unauthenticated');
        return refuseUpgrade(
          socket,
          refusal === 'address' ? 429 : 503,
          refusal === 'address' ? 'Too Many Requests' : 'Service Unavailable',
        );
      }
      // ws answers a handshake it can't accept (a wrong method, key or version) with 400 itself
      wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws, from));
    };
    app.server.on('upgrade', onUpgrade);
    // shutting down: new sockets are answered 503, and the open ones get 1012 (reconnect, to another
    // process if any); the listener stays until the server has closed, so that answer is ours
    app.addHook('preClose', async () => {
      accepting = false;
      hub.closeForRestart();
    });

    // the platform's events (closed with the app): messages and read marks, and accounts whose tokens ended
    await app.events.subscribe(
      app.events.channels.chat,
      (p) => hub.onChatEvent(p),
      () => hub.resync(),
    );
    await app.events.subscribe(app.events.channels.account, (p) => hub.onAccountEvent(p));
    // bookings confirmed, cancelled, refunded or marked a no-show: each side's view to their sockets
    await app.events.subscribe(
      app.events.channels.booking,
      (p) => hub.onBookingEvent(p),
      () => hub.resync(),
    );

    const sweep = setInterval(() => {
      sweepUnreadChats({ db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl, log: app.log }).catch((err) =>
        app.log.error({ err }, 'unread chat sweep failed'),
      );
    }, SWEEP_EVERY_MS);
    sweep.unref();

    app.addHook('onClose', async () => {
      app.server.off('upgrade', onUpgrade);
      clearInterval(sweep);
      clearInterval(deliveredTimer);
      hub.close();
      await flushDelivered();
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
    await app.register(chatsRoutes(service, auth, { limitSends: [limitSends, ...writes], writes }));
  };
}

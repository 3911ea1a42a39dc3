import {
  CHAT_LIMITS,
  CHAT_MSG,
  WS_CLOSE,
  ZWsClientFrame,
  type Role,
  type TBooking,
  type TChatMessage,
  type TWsServerFrame,
} from '@spotter/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Db } from '../../db/client';
import type { TokenService } from '../../lib/tokens';
import * as repo from './chats.repo';
import type { ChatEvent, ChatsService } from './chats.service';

/** A socket whose unsent frames pass this is too slow to keep up, and is closed. */
const BUFFERED_MAX_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/**
 * Each socket is pinged once per HEARTBEAT_MS, but a slice of them every HEARTBEAT_MS / SLICES: 10,000
 * sockets pinged at once stalled both ends for up to a second (bench/chat.mjs), delaying every push.
 */
const HEARTBEAT_SLICES = 30;

type Client = {
  socket: WebSocket;
  account?: { id: string; role: Role; tv: number };
  /** The client's address (an IPv6 /64) while the socket has not authenticated; counted in `pending`. */
  pendingFrom?: string;
  badFrames: number;
  /** Pings since `pingsSince` (a fixed one-minute window). */
  pings: number;
  pingsSince: number;
  isAlive: boolean;
  slice: number;
};

const PING_WINDOW_MS = 60_000;

export type HubOptions = {
  authTimeoutMs?: number;
  socketsPerAccount?: number;
  badFramesMax?: number;
  /** Sockets not yet authenticated, per client address and in all (docs/decisions/034-socket-and-sign-in-limits.md). */
  unauthenticatedPerIp?: number;
  unauthenticatedMax?: number;
  /** Pings, of either kind, one socket may send a minute. */
  pingsPerMinute?: number;
};

/**
 * This process's chat sockets. A socket authenticates with its first frame (never the URL, which
 * ends up in logs), then receives the pushes for its account that any process announced.
 */
export function createChatHub(deps: {
  db: Db;
  tokens: TokenService;
  service: ChatsService;
  log: FastifyBaseLogger;
  options?: HubOptions;
  /** A booking as its user and its trainer each see it (the bookings module's), for the `booking` frame. */
  bookingViews?: (bookingId: string) => Promise<{ user: TBooking; trainer: TBooking } | undefined>;
  /** A message was pushed to an open socket of its recipient (then no Web Push goes out for it). */
  onDelivered?: (messageId: string) => void;
}) {
  const { db, tokens, service, log } = deps;
  const authTimeoutMs = deps.options?.authTimeoutMs ?? CHAT_LIMITS.authTimeoutMs;
  const socketsPerAccount = deps.options?.socketsPerAccount ?? CHAT_LIMITS.socketsPerAccount;
  const badFramesMax = deps.options?.badFramesMax ?? CHAT_LIMITS.badFramesMax;
  const unauthenticatedPerIp = deps.options?.unauthenticatedPerIp ?? 20;
  const unauthenticatedMax = deps.options?.unauthenticatedMax ?? 1000;
  const pingsPerMinute = deps.options?.pingsPerMinute ?? 60;

  const all = new Set<Client>();
  const byAccount = new Map<string, Set<Client>>();
  /** Sockets that have not authenticated, by client address; `pendingCount` is their sum. */
  const pending = new Map<string, number>();
  let pendingCount = 0;

  function settle(c: Client) {
    if (c.pendingFrom === undefined) return;
    const n = (pending.get(c.pendingFrom) ?? 1) - 1;
    if (n > 0) pending.set(c.pendingFrom, n);
    else pending.delete(c.pendingFrom);
    pendingCount--;
    c.pendingFrom = undefined;
  }

  /**
   * Counts a ping against the socket's budget; answers whether it may be answered. Over the budget
   * the socket is closed (1008); one that ignores the close and keeps pinging is cut off.
   */
  function countPing(c: Client): boolean {
    const open = c.socket.readyState === c.socket.OPEN;
    const now = Date.now();
    if (open && now - c.pingsSince >= PING_WINDOW_MS) {
      c.pingsSince = now;
      c.pings = 0;
    }
    if (++c.pings <= pingsPerMinute) return open;
    if (open) c.socket.close(WS_CLOSE.tooManyPings, 'too many pings');
    else if (c.pings > 2 * pingsPerMinute) c.socket.terminate();
    return false;
  }

  const slices = Array.from({ length: HEARTBEAT_SLICES }, () => new Set<Client>());
  let nextSlice = 0;
  let tick = 0;
  const heartbeat = setInterval(() => {
    for (const c of slices[tick++ % HEARTBEAT_SLICES]) {
      if (!c.isAlive) {
        c.socket.terminate();
        continue;
      }
      c.isAlive = false;
      c.socket.ping();
    }
  }, HEARTBEAT_MS / HEARTBEAT_SLICES);
  heartbeat.unref();

  /** A text frame; one push to many sockets is encoded once, as a Buffer. */
  function sendRaw(c: Client, data: string | Buffer) {
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > BUFFERED_MAX_BYTES) {
      c.socket.close(WS_CLOSE.tooSlow, 'too slow');
      return;
    }
    c.socket.send(data, { binary: false });
  }
  const send = (c: Client, frame: TWsServerFrame) => sendRaw(c, JSON.stringify(frame));

  function badFrame(c: Client, message: string) {
    c.badFrames++;
    if (c.badFrames >= badFramesMax) {
      c.socket.close(WS_CLOSE.badFrames, 'too many invalid frames');
      return;
    }
    send(c, { type: 'error', message });
  }

  function parse(data: RawData, isBinary: boolean) {
    if (isBinary) return undefined;
    try {
      const parsed = ZWsClientFrame.safeParse(JSON.parse(data.toString()));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** The account a token stands for, checked against the account as it is now. */
  async function identify(raw: string) {
    const token = raw.trim().toLowerCase().startsWith('bearer ') ? raw.trim().slice(7).trim() : raw.trim();
    const claims = token ? await tokens.verify(token) : null;
    if (!claims) return undefined;
    const [row] = await repo.findAccounts(db, [claims.id]);
    if (!row || row.deletedAt || row.role !== claims.role || row.tokenVersion !== claims.tv) return undefined;
    return { id: claims.id, role: claims.role, tv: claims.tv };
  }

  async function authenticate(c: Client, token: string, timer: NodeJS.Timeout) {
    const account = await identify(token);
    clearTimeout(timer);
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (!account) {
      c.socket.close(WS_CLOSE.unauthorized, 'unauthorized');
      return;
    }
    let mine = byAccount.get(account.id);
    if ((mine?.size ?? 0) >= socketsPerAccount) {
      c.socket.close(WS_CLOSE.tooManySockets, 'too many sockets');
      return;
    }
    if (!mine) byAccount.set(account.id, (mine = new Set()));
    mine.add(c);
    settle(c);
    c.account = account;
    send(c, { type: 'ready' });
  }

  function remove(c: Client) {
    settle(c);
    all.delete(c);
    slices[c.slice].delete(c);
    if (!c.account) return;
    const mine = byAccount.get(c.account.id);
    mine?.delete(c);
    if (mine && !mine.size) byAccount.delete(c.account.id);
  }

  function targets(...accountIds: string[]): Client[] {
    return accountIds.flatMap((id) => [...(byAccount.get(id) ?? [])]);
  }

  return {
    /**
     * Why a handshake from `from` (a client address) must be refused, before any work is spent on it:
     * too many sockets that have not authenticated yet, from that address or in all.
     */
    refusal(from: string): 'address' | 'total' | undefined {
      if (pendingCount >= unauthenticatedMax) return 'total';
      if ((pending.get(from) ?? 0) >= unauthenticatedPerIp) return 'address';
      return undefined;
    },

    /** `socket`'s server must not answer pings itself (`autoPong: false`): the hub answers those within budget. */
    accept(socket: WebSocket, from = 'unknown') {
      const c: Client = {
        socket,
        pendingFrom: from,
        badFrames: 0,
        pings: 0,
        pingsSince: Date.now(),
        isAlive: true,
        slice: nextSlice++ % HEARTBEAT_SLICES,
      };
      pending.set(from, (pending.get(from) ?? 0) + 1);
      pendingCount++;
      all.add(c);
      slices[c.slice].add(c);
      const timer = setTimeout(() => socket.close(WS_CLOSE.unauthorized, 'authentication timeout'), authTimeoutMs);
      timer.unref();
      let authenticating = false;
      // a flood of pings is closed, not answered (one socket's slowed every request to 2–2.8 s)
      socket.on('ping', (data) => {
        if (countPing(c)) socket.pong(data);
      });
      socket.on('pong', () => {
        c.isAlive = true;
        countPing(c);
      });
      socket.on('error', (err) => log.debug({ err }, 'chat socket error'));
      socket.on('close', () => {
        clearTimeout(timer);
        remove(c);
      });
      socket.on('message', (data, isBinary) => {
        c.isAlive = true;
        const frame = parse(data, isBinary);
        if (!c.account) {
          // before `ready` only one auth frame is read; anything else ends the socket
          if (authenticating) return;
          if (frame?.type !== 'auth') {
            clearTimeout(timer);
            socket.close(WS_CLOSE.unauthorized, 'authenticate first');
            return;
          }
          authenticating = true;
          authenticate(c, frame.token, timer).catch((err) => {
            log.error({ err }, 'chat socket authentication failed');
            socket.close(1011, 'server error');
          });
          return;
        }
        if (!frame) return badFrame(c, CHAT_MSG.wsBadFrame);
        if (frame.type === 'auth') return badFrame(c, CHAT_MSG.wsAlreadyAuthenticated);
        if (countPing(c)) send(c, { type: 'pong' });
      });
    },

    /** A `spotter_chat` notification: push it to this process's sockets of both participants. */
    async onChatEvent(payload: string) {
      let event: ChatEvent;
      try {
        event = JSON.parse(payload) as ChatEvent;
      } catch {
        return;
      }
      const to = targets(event.u, event.t);
      if (!to.length) return;
      let frame: TWsServerFrame;
      if (event.k === 'm') {
        let message: TChatMessage | undefined;
        try {
          message = await service.messageForPush(event.id);
        } catch (err) {
          // the message is stored but could not be read now (a pool timeout under load): rather than
          // drop the push, the participants' clients fetch what they missed (`after`)
          log.warn({ err, messageId: event.id }, 'chat push read failed; participants told to resync');
          const data = Buffer.from(JSON.stringify({ type: 'resync' } satisfies TWsServerFrame));
          for (const c of to) sendRaw(c, data);
          return;
        }
        if (!message) return;
        frame = { type: 'message', message };
        if (byAccount.get(message.recipientId)?.size) deps.onDelivered?.(message._id);
      } else if (event.k === 'r') {
        frame = { type: 'read', userId: event.u, trainerId: event.t, readerId: event.by, readAt: event.at };
      } else {
        return;
      }
      const data = Buffer.from(JSON.stringify(frame));
      for (const c of to) sendRaw(c, data);
    },

    /**
     * A `spotter_booking` notification (a booking confirmed, cancelled, refunded or marked a no-show):
     * push it to this process's sockets of its user and its trainer, each the booking as they see it.
     */
    async onBookingEvent(payload: string) {
      let event: { id: string; u: string; t: string };
      try {
        event = JSON.parse(payload);
      } catch {
        return;
      }
      const toUser = targets(event.u);
      const toTrainer = targets(event.t);
      if ((!toUser.length && !toTrainer.length) || !deps.bookingViews) return;
      let views: Awaited<ReturnType<NonNullable<typeof deps.bookingViews>>>;
      try {
        views = await deps.bookingViews(event.id);
      } catch (err) {
        // stored but not readable now: the clients fetch their bookings again
        log.warn({ err, bookingId: event.id }, 'booking push read failed; its people told to resync');
        const data = Buffer.from(JSON.stringify({ type: 'resync' } satisfies TWsServerFrame));
        for (const c of [...toUser, ...toTrainer]) sendRaw(c, data);
        return;
      }
      if (!views) return;
      const userFrame = Buffer.from(JSON.stringify({ type: 'booking', booking: views.user } satisfies TWsServerFrame));
      const trainerFrame = Buffer.from(JSON.stringify({ type: 'booking', booking: views.trainer } satisfies TWsServerFrame));
      for (const c of toUser) sendRaw(c, userFrame);
      for (const c of toTrainer) sendRaw(c, trainerFrame);
    },

    /** A `spotter_account` notification: close that account's sockets whose token no longer holds. */
    async onAccountEvent(accountId: string) {
      const mine = byAccount.get(accountId);
      if (!mine?.size) return;
      const [row] = await repo.findAccounts(db, [accountId]);
      for (const c of mine) {
        if (!row || row.deletedAt || row.tokenVersion !== c.account?.tv) c.socket.close(WS_CLOSE.unauthorized, 'session ended');
      }
    },

    /** The listener reconnected and may have missed pushes: clients fetch with `after`. */
    resync() {
      const data = Buffer.from(JSON.stringify({ type: 'resync' } satisfies TWsServerFrame));
      for (const c of all) if (c.account) sendRaw(c, data);
    },

    stats: () => ({ sockets: all.size, accounts: byAccount.size }),

    /** Shutting down: every socket is closed with 1012, so clients reconnect (to another process, if any). */
    closeForRestart() {
      for (const c of all) c.socket.close(WS_CLOSE.restart, 'server restarting');
    },

    close() {
      clearInterval(heartbeat);
      for (const c of all) c.socket.terminate();
    },
  };
}

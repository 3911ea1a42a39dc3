import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { WS_CLOSE, ZWsServerFrame, formatDateTimeIn, type TBooking, type TWsServerFrame } from '@spotter/shared';
import { bookingKeys } from './api/bookings';
import { applyRead, catchUp, receiveMessage, useChatViewer, type ChatViewer } from './api/chats';
import { balanceKeys } from './api/packages';
import { paymentKeys } from './api/payments';
import { bookingUpdates } from './booking-updates';
import { useSession } from './session';
import { notify } from './toast';

/**
 * The chat socket (/api/ws, docs/product.md#chat): one per tab, authenticated by its first frame (the token
 * never goes in the URL, which reaches logs), reconnecting with jittered, capped backoff. After a
 * reconnect, and when the server says `resync`, the loaded conversations ask for what they missed
 * (`?after=`); every message lands in the cache once, whichever way it came.
 */

/** What the client needs of a WebSocket (the browser's, or a fake in tests). */
export type SocketLike = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};
type SocketFactory = new (url: string) => SocketLike;

const BACKOFF = { baseMs: 1000, capMs: 30_000 } as const;
/** A ping this often; a socket that answered nothing for two of them is dead and replaced. */
const PING_MS = 25_000;
/** Message ids already applied, kept to drop a repeated push (the caches dedupe too). */
const SEEN_MAX = 500;

/** Full jitter: anywhere up to the doubled delay, never above the cap, so tabs do not reconnect in step. */
export const backoffDelay = (attempt: number, random: () => number = Math.random) =>
  Math.round(random() * Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** attempt));

const chatSocketUrl = (location: Pick<Location, 'protocol' | 'host'> = window.location) =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;

/** 'Tue 07:00' in the booking's zone. */
const weekdayTime = (b: TBooking) => {
  const full = formatDateTimeIn(b.startsAt, b.timeZone); // 'Tue 1 Dec, 07:00'
  return `${full.split(' ')[0]} ${full.split(', ').at(-1)}`;
};

/**
 * What a booking push tells the viewer, or null when it is the viewer's own doing (their screen
 * already said it) or says nothing new. `before` is the booking as the viewer's cache had it.
 */
export function bookingToast(viewer: ChatViewer, booking: TBooking, before: TBooking | undefined): string | null {
  const isTrainer = viewer.role === 'trainer';
  const other = isTrainer
    ? { first: booking.userFirstName, last: booking.userLastName }
    : { first: booking.trainerFirstName, last: booking.trainerLastName };
  const short = `${other.first} ${other.last.slice(0, 1)}${other.last ? '.' : ''}`.trim();
  const at = formatDateTimeIn(booking.startsAt, booking.timeZone);
  switch (booking.status) {
    case 'pending':
      // a hold nobody on this screen asked for: a time from the waitlist, held for the user
      // (docs/product.md#waitlist); a user's own holds are not pushed
      return isTrainer || before ? null : `A time opened up: ${short}, ${at}. It is held for you for 30 minutes`;
    case 'confirmed':
      // only the client moves a session (their screen said so already)
      if (before && before.status === 'confirmed' && before.startsAt !== booking.startsAt)
        return isTrainer ? `Moved: ${short}, now ${at}` : null;
      if (before?.status === 'confirmed') return null;
      return isTrainer ? `New booking: ${short}, ${at}` : null;
    case 'cancelled':
    case 'refunded': {
      if (before?.status === booking.status) return null;
      if (booking.cancelledBy === viewer.role) return null;
      let outcome = booking.status === 'refunded' ? 'refunded in full' : 'not refunded';
      // paid from a package: the session went back to the client's balance (docs/product.md#packages)
      if (booking.paidFromBalance) outcome = isTrainer ? 'back in their package balance' : 'back in your package balance';
      return `${other.first} cancelled ${weekdayTime(booking)}: ${outcome}`;
    }
    case 'no-show':
      return isTrainer || before?.status === 'no-show' ? null : `${other.first} marked ${weekdayTime(booking)} a no-show`;
    default:
      return null;
  }
}

/**
 * A booking of the viewer was made, moved, cancelled, refunded or marked a no-show (the `booking`
 * push): every view of bookings and payments reloads (the schedule, My sessions, the slots), and a
 * toast and the header's badge say what the other side did.
 */
export function receiveBooking(queryClient: QueryClient, viewer: ChatViewer, booking: TBooking) {
  if (booking.userId !== viewer.id && booking.trainerId !== viewer.id) return;
  const before = queryClient
    .getQueriesData<TBooking[]>({ queryKey: [...bookingKeys.all, 'list'] })
    .flatMap(([, rows]) => rows ?? [])
    .find((row) => row._id === booking._id);
  const toast = bookingToast(viewer, booking, before);
  if (toast) {
    notify.message(toast);
    bookingUpdates.add();
  }
  void queryClient.invalidateQueries({ queryKey: bookingKeys.all });
  void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
  // a session paid from a package takes from or goes back to the balance
  void queryClient.invalidateQueries({ queryKey: balanceKeys.all });
}

type ChatSocketOptions = {
  token: string;
  viewer: ChatViewer;
  queryClient: QueryClient;
  url?: string;
  WebSocketImpl?: SocketFactory;
  random?: () => number;
};

export type ChatSocket = {
  /** 'ready' once the server accepted the token. */
  readonly state: 'connecting' | 'ready' | 'waiting' | 'closed';
  close(): void;
};

export function connectChatSocket({
  token,
  viewer,
  queryClient,
  url = chatSocketUrl(),
  WebSocketImpl = globalThis.WebSocket as unknown as SocketFactory,
  random = Math.random,
}: ChatSocketOptions): ChatSocket {
  let socket: SocketLike | null = null;
  let state: ChatSocket['state'] = 'connecting';
  let attempt = 0;
  let hasBeenReady = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let isHeard = true;
  const seen = new Set<string>();

  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
  };

  const resync = () => void catchUp(queryClient, viewer).catch(() => undefined);

  function onFrame(frame: TWsServerFrame) {
    switch (frame.type) {
      case 'ready':
        state = 'ready';
        attempt = 0;
        if (hasBeenReady) resync();
        hasBeenReady = true;
        break;
      case 'message':
        if (seen.has(frame.message._id)) return;
        remember(frame.message._id);
        if (frame.message.senderId !== viewer.id && frame.message.recipientId !== viewer.id) return;
        receiveMessage(queryClient, viewer, frame.message);
        break;
      case 'read':
        applyRead(queryClient, viewer, frame);
        break;
      case 'resync':
        resync();
        break;
      case 'booking':
        receiveBooking(queryClient, viewer, frame.booking);
        break;
      default:
        break;
    }
  }

  function stopPing() {
    clearInterval(pingTimer);
    pingTimer = undefined;
  }

  function detach(s: SocketLike) {
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
  }

  function scheduleReconnect() {
    stopPing();
    if (state === 'closed') return;
    state = 'waiting';
    const delay = backoffDelay(attempt++, random);
    retryTimer = setTimeout(open, delay);
  }

  function open() {
    retryTimer = undefined;
    if (state === 'closed') return;
    state = 'connecting';
    let s: SocketLike;
    try {
      s = new WebSocketImpl(url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = s;
    s.onopen = () => {
      s.send(JSON.stringify({ type: 'auth', token }));
      isHeard = true;
      pingTimer = setInterval(() => {
        if (!isHeard) {
          // nothing for two intervals: the connection is gone without a close; start over
          detach(s);
          s.close();
          scheduleReconnect();
          return;
        }
        isHeard = false;
        if (s.readyState === 1) s.send(JSON.stringify({ type: 'ping' }));
      }, PING_MS);
    };
    s.onmessage = (event) => {
      isHeard = true;
      let parsed;
      try {
        parsed = ZWsServerFrame.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (parsed.success) onFrame(parsed.data);
    };
    s.onerror = () => undefined; // a close follows
    s.onclose = (event) => {
      detach(s);
      if (socket === s) socket = null;
      // a bad, expired or revoked token will not get better by retrying: the next login opens a new socket
      if (event.code === WS_CLOSE.unauthorized) {
        stopPing();
        state = 'closed';
        return;
      }
      scheduleReconnect();
    };
  }

  /** Back online: try now rather than at the end of a long backoff. */
  const onOnline = () => {
    if (state !== 'waiting') return;
    clearTimeout(retryTimer);
    open();
  };
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline);

  open();

  return {
    get state() {
      return state;
    },
    close() {
      state = 'closed';
      clearTimeout(retryTimer);
      stopPing();
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
      if (socket) {
        detach(socket);
        socket.close(1000, 'logout');
        socket = null;
      }
    },
  };
}

/** The tab's one socket, shared by every component that needs it. */
let shared: { token: string; queryClient: QueryClient; socket: ChatSocket; users: number } | null = null;

function retainChatSocket(token: string, viewer: ChatViewer, queryClient: QueryClient) {
  if (!shared || shared.token !== token || shared.queryClient !== queryClient) {
    shared?.socket.close();
    shared = { token, queryClient, socket: connectChatSocket({ token, viewer, queryClient }), users: 0 };
  }
  const entry = shared;
  entry.users++;
  return () => {
    entry.users--;
    if (entry.users > 0 || shared !== entry) return;
    entry.socket.close();
    shared = null;
  };
}

/**
 * Keeps the tab's chat socket open while someone is logged in, and closes it on logout (the token
 * goes, so the effect ends). Mounted by the header, which every page has.
 */
export function useChatSocket() {
  const { token } = useSession();
  const viewer = useChatViewer();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token || !viewer || typeof globalThis.WebSocket === 'undefined') return;
    return retainChatSocket(token, viewer, queryClient);
  }, [token, viewer, queryClient]);
}

import { z } from 'zod';
import { ZBooking } from './bookings';
import { ZIdParam } from './ids';
import { CHAT_MSG } from './messages';

/** Limits of the chat, shared by the browser form, the REST routes and the WebSocket. */
export const CHAT_LIMITS = {
  messageMax: 2000,
  /** Messages per page of GET /api/chats/:trainerId. */
  pageSize: 50,
  /**
   * A whole inbox (GET /api/chats/{own id}, no `userId`) answers the newest page of each
   * conversation, the most recent conversations first, up to this many messages in all
   * (docs/decisions/035-hold-cooldown-and-whole-inbox.md).
   */
  inboxMessagesMax: 2000,
  /** Largest WebSocket frame a client may send, in bytes. */
  frameMaxBytes: 16 * 1024,
  /** The first frame must authenticate within this time. */
  authTimeoutMs: 10_000,
  /** Invalid frames tolerated on one socket before it is closed. */
  badFramesMax: 10,
  /** Open sockets per account, over all its devices, per server process. */
  socketsPerAccount: 10,
  /** Messages one account may send per minute. */
  sendsPerMinute: 30,
} as const;

/** Close codes of /api/ws (4000–4999 are the application's). */
export const WS_CLOSE = {
  /** No, a bad, an expired or a revoked token: log in again. */
  unauthorized: 4401,
  /** Too many invalid frames. */
  badFrames: 4400,
  /** Too many sockets open for this account. */
  tooManySockets: 4429,
  /** More pings than a socket's budget (RFC 6455 "Policy Violation"). */
  tooManyPings: 1008,
  /** The client did not read its frames fast enough. */
  tooSlow: 4408,
  /** The server is shutting down (RFC 6455 "Service Restart"): reconnect, to another process if there is one. */
  restart: 1012,
} as const;

/** One chat message as every answer and push carries it (docs/product.md#data, plus `readAt`). */
export const ZChatMessage = z.object({
  _id: z.string(),
  senderId: z.string(),
  recipientId: z.string(),
  message: z.string(),
  messageDate: z.string(),
  senderFirstName: z.string(),
  senderLastName: z.string(),
  senderPicture: z.string(),
  readAt: z.string().nullable().optional(),
  /** The sender's `clientMessageId`, when it sent one: how its client matches a pending message. */
  clientMessageId: z.string().nullable().optional(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ChatBodySchema = z
  .string({ error: CHAT_MSG.empty })
  .trim()
  .min(1, CHAT_MSG.empty)
  .max(CHAT_LIMITS.messageMax, CHAT_MSG.tooLong)
  .refine((s) => !s.includes('\u0000'), CHAT_MSG.invalidCharacter);

/**
 * POST /api/chats/. The sender comes from the token; the spec's sender fields, messageDate and
 * userToken are accepted and ignored (docs/product.md#identity-from-the-token).
 */
export const ZSendChatRequest = z.object({
  message: ChatBodySchema,
  recipientId: z.string({ error: CHAT_MSG.chooseRecipient }).min(1, CHAT_MSG.chooseRecipient).max(64, CHAT_MSG.recipientNotFound),
  /**
   * A UUID the client picks for this message (docs/product.md#offline): sending it again (a message
   * typed offline, retried after reconnecting) answers the message already stored, never a second one.
   */
  clientMessageId: z.uuid({ error: 'clientMessageId must be a UUID' }).optional(),
  messageDate: z.unknown().optional(),
  senderFirstName: z.unknown().optional(),
  senderLastName: z.unknown().optional(),
  senderPicture: z.unknown().optional(),
  senderId: z.unknown().optional(),
  userToken: z.unknown().optional(),
});
export type TSendChatRequest = z.input<typeof ZSendChatRequest>;
export const ZSendChatResponse = z.object({ message: ZChatMessage });

/** `before`: the page older than that message; `after`: what came after it (reconnect catch-up). */
export const ZChatQuery = z.object({
  userId: z.string().max(64).optional(),
  before: z.string().max(64).optional(),
  after: z.string().max(64).optional(),
});
export type TChatQuery = z.infer<typeof ZChatQuery>;
export const ZChatParams = ZIdParam(CHAT_MSG.recipientNotFound, 'trainerId');

/** Oldest first. `hasMore`: older messages exist (newest page, `before`) or newer ones (`after`). */
export const ZChatMessagesResponse = z.object({ allMessages: z.array(ZChatMessage), hasMore: z.boolean().optional() });
export type TChatMessagesResponse = z.infer<typeof ZChatMessagesResponse>;

export const ZConversation = z.object({
  counterpartId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  picture: z.string(),
  lastMessage: z.string(),
  lastMessageDate: z.string(),
  unread: z.number(),
});
export type TConversation = z.infer<typeof ZConversation>;
/** Newest conversation first. */
export const ZConversationsResponse = z.object({ conversations: z.array(ZConversation) });
export const ZCounterpartParams = ZIdParam(CHAT_MSG.recipientNotFound, 'counterpartId');
export const ZMarkReadResponse = z.object({ message: z.string(), read: z.number().optional() });

/** Frames a client sends on /api/ws. The first one must be `auth`. */
export const ZWsClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  z.object({ type: z.literal('ping') }),
]);
export type TWsClientFrame = z.infer<typeof ZWsClientFrame>;

/** Frames the server sends on /api/ws. */
export const ZWsServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('message'), message: ZChatMessage }),
  /** `readerId` read every message the other side of (userId, trainerId) had sent, at `readAt`. */
  z.object({ type: z.literal('read'), userId: z.string(), trainerId: z.string(), readerId: z.string(), readAt: z.string() }),
  /** The server may have missed pushes (its database listener reconnected): fetch with `after`. */
  z.object({ type: z.literal('resync') }),
  /** A booking of the recipient was made (paid), moved, cancelled, refunded or marked a no-show: as the recipient sees it. */
  z.object({ type: z.literal('booking'), booking: ZBooking }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type TWsServerFrame = z.infer<typeof ZWsServerFrame>;

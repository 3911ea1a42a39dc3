import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  CHAT_LIMITS,
  CHAT_MSG,
  isId,
  ROLE_MSG,
  SERVER_MSG,
  type TChatMessage,
  type TConversation,
  type ZChatQuery,
  type ZSendChatRequest,
} from '@spotter/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller, SignedCaller } from '../../plugins/auth';
import type { Mailer } from '../mail';
import { FORMER_MEMBER } from '../accounts';
import { chatUnreadMail } from './chat-unread-mail';
import { CHAT_PUSH_JOB } from './chat-push';
import * as repo from './chats.repo';

/** The platform's events (`app.events`, docs/architecture.md): channel names and a publish bound to a write. */
type ChatEvents = Pick<FastifyInstance['events'], 'channels' | 'publish'>;

/** A message still unread this long is mailed about. */
export const UNREAD_MAIL_AFTER_MS = 15 * 60_000;
/** How long a sent message is kept for this process's own push, sparing it a read. */
const RECENT_TTL_MS = 30_000;

/** What goes through `spotter_chat`: ids only, far below NOTIFY's 8000-byte limit. */
export type ChatEvent = { k: 'm'; id: string; u: string; t: string } | { k: 'r'; u: string; t: string; by: string; at: string };

function toChatMessage(row: Omit<repo.MessageRow, 'seq'>): TChatMessage {
  const gone = row.deletedAt !== null;
  const senderId = row.senderRole === 'user' ? row.userId : row.trainerId;
  return {
    _id: row.id,
    senderId,
    recipientId: row.senderRole === 'user' ? row.trainerId : row.userId,
    message: row.body,
    messageDate: row.createdAt.toISOString(),
    senderFirstName: gone ? FORMER_MEMBER.firstName : row.firstName,
    senderLastName: gone ? FORMER_MEMBER.lastName : row.lastName,
    senderPicture: gone ? '' : row.picture,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    ...(row.clientMessageId ? { clientMessageId: row.clientMessageId } : {}),
  };
}

/** The conversation between the caller and a counterpart, as (userId, trainerId). */
function conversationOf(caller: Caller, counterpartId: string) {
  return caller.role === 'user'
    ? { userId: caller.id, trainerId: counterpartId }
    : { userId: counterpartId, trainerId: caller.id };
}

export function createChatsService({ db, events }: { db: Db; events: ChatEvents }) {
  /** This process's sends, by id, from before their statement runs: their push then needs no read. */
  const recent = new Map<string, { message: Promise<TChatMessage | undefined>; at: number }>();

  function remember(id: string, message: Promise<TChatMessage | undefined>) {
    const now = Date.now();
    for (const [key, entry] of recent) {
      if (now - entry.at < RECENT_TTL_MS) break;
      recent.delete(key);
    }
    recent.set(id, { message, at: now });
  }

  /**
   * The error for a message that was not stored: the sender's token no longer holds (checked first,
   * as an authenticated route would), or the recipient is missing, or the roles clash.
   */
  async function whyNotSent(caller: SignedCaller, recipientId: string): Promise<AppError> {
    const found = await repo.findAccounts(db, isId(recipientId) ? [caller.id, recipientId] : [caller.id]);
    const sender = found.find((a) => a.id === caller.id);
    if (!sender || sender.deletedAt || sender.role !== caller.role || sender.tokenVersion !== caller.tv)
      return new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
    const recipient = recipientId === caller.id ? undefined : found.find((a) => a.id === recipientId);
    if (!recipient || recipient.deletedAt) return new AppError('NOT_FOUND', CHAT_MSG.recipientNotFound);
    if (caller.role === 'trainer' && recipient.role === 'trainer')
      return new AppError('FORBIDDEN_ROLE', ROLE_MSG.trainersCantMessage);
    if (caller.role === 'user' && recipient.role === 'user')
      return new AppError('FORBIDDEN_ROLE', CHAT_MSG.usersCantMessageUsers);
    return new AppError('NOT_FOUND', CHAT_MSG.recipientNotFound);
  }

  return {
    /**
     * Stores a message from the caller to the other side of a user–trainer conversation, then
     * announces it (delivered to every process once the insert commits).
     */
    async sendMessage(
      caller: SignedCaller | undefined,
      input: Pick<z.output<typeof ZSendChatRequest>, 'recipientId' | 'message' | 'clientMessageId'>,
    ): Promise<TChatMessage> {
      if (!caller) throw new AppError('UNAUTHENTICATED', ROLE_MSG.onlyUsersMessage);
      // the route checks the token's signature only: an id claim that is no id names no account
      if (!isId(caller.id)) throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
      if (!isId(input.recipientId) || input.recipientId === caller.id) throw await whyNotSent(caller, input.recipientId);
      const { userId, trainerId } = conversationOf(caller, input.recipientId);
      const id = randomUUID();
      const stored = repo
        .insertMessageAndNotify(db, {
          id,
          userId,
          trainerId,
          senderRole: caller.role,
          tokenVersion: caller.tv,
          body: input.message,
          channel: events.channels.chat,
          clientMessageId: input.clientMessageId,
          pushJob: CHAT_PUSH_JOB.name,
        })
        .then((row) =>
          row
            ? toChatMessage({
                ...row,
                userId,
                trainerId,
                senderRole: caller.role,
                body: input.message,
                readAt: null,
                deletedAt: null,
                clientMessageId: input.clientMessageId ?? null,
              })
            : undefined,
        );
      // remembered before the statement runs: its notification may be handled before `stored` resolves here
      remember(
        id,
        stored.catch(() => undefined),
      );
      const message = await stored;
      if (!message) {
        recent.delete(id);
        // a send retried after its answer was lost (docs/product.md#offline): the message stored then,
        // to a sender whose token is still good
        const why = await whyNotSent(caller, input.recipientId);
        if (input.clientMessageId && why.code !== 'TOKEN_INVALID') {
          const before = await repo.findByClientId(db, {
            userId,
            trainerId,
            senderRole: caller.role,
            clientMessageId: input.clientMessageId,
          });
          if (before) return toChatMessage(before);
        }
        throw why;
      }
      return message;
    },

    /**
     * GET /api/chats/:trainerId. A user reads their conversation with that trainer; the trainer
     * reads all of theirs, or one with `userId`; anyone else gets 403. A whole inbox (a trainer's
     * own id without `userId`, or a user's own id) answers, without a cursor, the newest page of
     * each conversation, most recent first, up to CHAT_LIMITS.inboxMessagesMax messages in all, so
     * a client that builds its inbox from it does not lose the quieter conversations
     * (docs/decisions/035-hold-cooldown-and-whole-inbox.md); `before` and `after` page through the
     * whole inbox in the order messages came.
     */
    async listMessages(
      caller: Caller,
      trainerId: string,
      query: z.output<typeof ZChatQuery>,
    ): Promise<{ allMessages: TChatMessage[]; hasMore: boolean }> {
      if (query.before && query.after)
        throw new AppError('VALIDATION_FAILED', CHAT_MSG.oneCursor, { before: CHAT_MSG.oneCursor });
      let scope: repo.Scope;
      if (caller.role === 'user') {
        if (query.userId !== undefined && query.userId !== caller.id)
          throw new AppError('FORBIDDEN', CHAT_MSG.notYourConversation);
        // the user's own id in the trainer's place: their whole inbox
        scope = trainerId === caller.id ? { userId: caller.id } : { trainerId, userId: caller.id };
      } else {
        if (trainerId !== caller.id) throw new AppError('FORBIDDEN', CHAT_MSG.notYourConversation);
        if (query.userId !== undefined && !isId(query.userId)) throw new AppError('NOT_FOUND', CHAT_MSG.recipientNotFound);
        scope = { trainerId, userId: query.userId };
      }
      const cursor = query.before ?? query.after;
      const isWholeInbox = !(scope.trainerId && scope.userId);
      if (isWholeInbox && cursor === undefined) {
        const rows = await repo.findInboxPages(db, {
          role: caller.role,
          accountId: caller.id,
          pageSize: CHAT_LIMITS.pageSize,
          maxMessages: CHAT_LIMITS.inboxMessagesMax,
        });
        const page = rows.filter((r) => r.n <= CHAT_LIMITS.pageSize);
        // older messages of a listed conversation, or conversations past the cap
        const hasMore = page.length < rows.length || (rows[0] !== undefined && rows[0].listed < rows[0].conversations);
        return { allMessages: page.map(toChatMessage), hasMore };
      }
      let seq: number | undefined;
      if (cursor !== undefined) {
        seq = isId(cursor) ? await repo.findSeqInScope(db, cursor, scope) : undefined;
        const field = query.before !== undefined ? 'before' : 'after';
        if (seq === undefined) throw new AppError('VALIDATION_FAILED', CHAT_MSG.badCursor, { [field]: CHAT_MSG.badCursor });
      }
      const page = await repo.findMessages(db, {
        ...scope,
        viewer: caller.role,
        limit: CHAT_LIMITS.pageSize,
        ...(query.before !== undefined ? { beforeSeq: seq } : {}),
        ...(query.after !== undefined ? { afterSeq: seq } : {}),
      });
      return { allMessages: page.rows.map(toChatMessage), hasMore: page.hasMore };
    },

    /** One row per counterpart, newest first, with what the caller has not read. */
    async listConversations(caller: Caller): Promise<TConversation[]> {
      const rows = await repo.findConversations(db, caller.role, caller.id);
      return rows.map((r) => {
        const gone = r.firstName === null || r.deletedAt !== null;
        return {
          counterpartId: r.counterpartId,
          firstName: gone ? FORMER_MEMBER.firstName : (r.firstName ?? ''),
          lastName: gone ? FORMER_MEMBER.lastName : (r.lastName ?? ''),
          picture: gone ? '' : (r.picture ?? ''),
          lastMessage: r.body,
          lastMessageDate: r.createdAt.toISOString(),
          unread: r.unread,
        };
      });
    },

    /** Marks what the counterpart sent as read and tells both sides' devices. */
    async markConversationRead(caller: Caller, counterpartId: string): Promise<number> {
      if (counterpartId === caller.id) throw new AppError('NOT_FOUND', CHAT_MSG.recipientNotFound);
      const { userId, trainerId } = conversationOf(caller, counterpartId);
      return db.transaction(async (tx) => {
        const { count, readAt } = await repo.markRead(tx, { userId, trainerId, readerRole: caller.role });
        if (count && readAt) {
          const event: ChatEvent = { k: 'r', u: userId, t: trainerId, by: caller.id, at: readAt.toISOString() };
          await events.publish(tx, events.channels.chat, JSON.stringify(event));
        }
        return count;
      });
    },

    /** The message a notification names: from this process's own sends when it has it, else read. */
    async messageForPush(id: string): Promise<TChatMessage | undefined> {
      const mine = recent.get(id);
      if (mine) {
        recent.delete(id);
        const message = await mine.message;
        if (message) return message;
      }
      const row = await repo.findMessageById(db, id);
      return row && toChatMessage(row);
    },
  };
}
export type ChatsService = ReturnType<typeof createChatsService>;

/**
 * Mails each recipient who left a conversation unread for 15 minutes, once per conversation until
 * they read it, when their account notifications are on. Durable: the claim is in the database,
 * so it survives restarts and two processes never send the same mail; a crash between the claim
 * and the send loses that mail rather than sending it twice. Answers how many mails went out.
 */
export async function sweepUnreadChats({
  db,
  mailer,
  publicUrl,
  now = new Date(),
  log,
}: {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  now?: Date;
  log?: FastifyBaseLogger;
}): Promise<number> {
  const groups = await repo.claimUnreadForMail(db, { now, cutoff: new Date(now.getTime() - UNREAD_MAIL_AFTER_MS), max: 5000 });
  if (!groups.length) return 0;
  const ids = [...new Set(groups.flatMap((g) => [g.userId, g.trainerId]))];
  const people = new Map((await repo.findAccounts(db, ids)).map((a) => [a.id, a]));
  let sent = 0;
  for (const g of groups) {
    const [recipientId, senderId] = g.senderRole === 'user' ? [g.trainerId, g.userId] : [g.userId, g.trainerId];
    const to = people.get(recipientId);
    const from = people.get(senderId);
    if (!to || to.deletedAt || !to.notifyAccount || !to.emailVerifiedAt) continue;
    const senderName =
      !from || from.deletedAt ? `${FORMER_MEMBER.firstName} ${FORMER_MEMBER.lastName}` : `${from.firstName} ${from.lastName}`;
    const inbox = new URL(to.role === 'trainer' ? '/trainer/chat' : '/user/chatOfUser', publicUrl).toString();
    try {
      await mailer.send(chatUnreadMail({ to: to.email, firstName: to.firstName, senderName, count: g.count, link: inbox }));
      sent++;
    } catch (err) {
      log?.error({ err, recipientId }, 'unread chat mail failed');
    }
  }
  return sent;
}

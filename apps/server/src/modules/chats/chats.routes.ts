import type { FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  CHAT_MSG,
  ZChatMessagesResponse,
  ZChatParams,
  ZChatQuery,
  ZConversationsResponse,
  ZCounterpartParams,
  ZErrorResponse,
  ZMarkReadResponse,
  ZSendChatRequest,
  ZSendChatResponse,
} from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { callerOf, type Auth, type SignedCaller } from '../../plugins/auth';
import type { ChatsService } from './chats.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };

type SendRequest = { signedCaller?: SignedCaller; body: z.output<typeof ZSendChatRequest> };

/**
 * `limitSends` for sending; `writes` for the other writes (rate limits, docs/decisions/003-rate-limits.md).
 * The caller's reads are kept until a write concerns them (docs/decisions/024-personal-read-cache.md).
 */
export function chatsRoutes(
  service: ChatsService,
  auth: Auth,
  limits: { limitSends: preHandlerAsyncHookHandler[]; writes: preHandlerAsyncHookHandler[] },
) {
  const { limitSends, writes } = limits;
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    const sendOptions = {
      schema: {
        tags: ['chats'],
        summary: 'Send a message: a user to a trainer, or a trainer to a user',
        body: ZSendChatRequest,
        response: { 201: ZSendChatResponse, ...errors },
      },
      preHandler: [auth.signedOnly, ...limitSends],
    };
    const send = async (req: SendRequest, reply: FastifyReply) => {
      const message = await service.sendMessage(req.signedCaller, req.body);
      return reply.status(201).send({ message });
    };
    r.post('/chats', sendOptions, send);
    // the spec posts to `/chats/`; with the router's ignoreTrailingSlash that is the route above
    if (!app.findRoute({ method: 'POST', url: `${app.prefix}/chats/` }))
      r.post('/chats/', { ...sendOptions, schema: { ...sendOptions.schema, hide: true } }, send);

    r.get(
      '/chats/:trainerId',
      {
        schema: {
          tags: ['chats'],
          summary:
            'A conversation (oldest first, pages of 50), or your whole inbox (your own id): the newest 50 of each conversation',
          params: ZChatParams,
          querystring: ZChatQuery,
          response: { 200: ZChatMessagesResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
        config: { cache: { in: 'personal', caller: (req) => callerOf(req).id } },
      },
      async (req) => service.listMessages(callerOf(req), req.params.trainerId.toLowerCase(), req.query),
    );

    r.get(
      '/conversations',
      {
        schema: {
          tags: ['chats'],
          summary: 'Your conversations, newest first, with unread counts',
          response: { 200: ZConversationsResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
        config: { cache: { in: 'personal', caller: (req) => callerOf(req).id } },
      },
      async (req) => ({ conversations: await service.listConversations(callerOf(req)) }),
    );

    r.post(
      '/conversations/:counterpartId/read',
      {
        schema: {
          tags: ['chats'],
          summary: 'Mark what the other side sent as read',
          params: ZCounterpartParams,
          response: { 200: ZMarkReadResponse, ...errors },
        },
        preHandler: [auth.requireAuth(), ...writes],
      },
      async (req) => ({
        message: CHAT_MSG.markedRead,
        read: await service.markConversationRead(callerOf(req), req.params.counterpartId),
      }),
    );

    // the chat socket: its handshake is answered by the chats module before any route (a plain GET is
    // no WebSocket); the first frame authenticates, the token never goes in this URL (it would reach logs)
    app.get('/ws', { schema: { hide: true } }, async () => {
      throw new AppError('NOT_FOUND', CHAT_MSG.wsOnly);
    });
  };
}

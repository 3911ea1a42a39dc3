import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { TChatMessage, TChatMessagesResponse, TConversation, TWsServerFrame } from '@spotter/shared';
import { useMemo } from 'react';
import { apiRequest } from '../api-client';
import { isRole, type Role } from '../paths';
import { useSession } from '../session';

/**
 * Chat (docs/product.md#chat): the fetchers of the chat endpoints, the one key factory, and the cache
 * updates that sends, pushes (lib/ws-client.ts) and catch-ups share, so every screen that shows a
 * conversation or the unread count follows one cache.
 *
 * A conversation is cached from the viewer's side, under the other participant's id; its pages
 * come newest first (page 0 is the newest 50), each page oldest first, as the server answers.
 */

/** Who is looking: the account id and role in the token (the server checks the token itself). */
export type ChatViewer = { id: string; role: Role };

export function viewerFromToken(token: string | null): ChatViewer | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: unknown; role?: unknown };
    return typeof claims.id === 'string' && claims.id && isRole(claims.role) ? { id: claims.id, role: claims.role } : null;
  } catch {
    return null;
  }
}

/** The logged-in viewer, or null for a visitor (or a token that is not a JWT). */
export function useChatViewer(): ChatViewer | null {
  const { token } = useSession();
  return useMemo(() => viewerFromToken(token), [token]);
}

export const chatKeys = {
  all: ['chats'] as const,
  ofViewer: (viewerId: string) => [...chatKeys.all, viewerId] as const,
  conversations: (viewerId: string) => [...chatKeys.ofViewer(viewerId), 'conversations'] as const,
  /** Every cached conversation of the viewer (the catch-up walks them). */
  allMessages: (viewerId: string) => [...chatKeys.ofViewer(viewerId), 'messages'] as const,
  messages: (viewerId: string, counterpartId: string) => [...chatKeys.allMessages(viewerId), counterpartId] as const,
};

type Cursor = string | undefined;
export type MessagePages = InfiniteData<TChatMessagesResponse, Cursor>;

/** GET /api/chats/:trainerId as the viewer asks it: a user names the trainer, a trainer names the user. */
function conversationPath(viewer: ChatViewer, counterpartId: string, cursor: { before?: string; after?: string }) {
  const trainerId = viewer.role === 'trainer' ? viewer.id : counterpartId;
  const params = new URLSearchParams();
  if (viewer.role === 'trainer') params.set('userId', counterpartId);
  if (cursor.before) params.set('before', cursor.before);
  if (cursor.after) params.set('after', cursor.after);
  return `/chats/${encodeURIComponent(trainerId)}?${params.toString()}`;
}

/** One page of a conversation, oldest first: the newest 50, the 50 `before` a message, or what came `after` one. */
const getMessages = (
  { viewer, counterpartId, before, after }: { viewer: ChatViewer; counterpartId: string; before?: string; after?: string },
  signal?: AbortSignal,
) => apiRequest<TChatMessagesResponse>(conversationPath(viewer, counterpartId, { before, after }), { signal });

/** GET /api/conversations: one row per counterpart, newest first, with unread counts. */
const getConversations = async (signal?: AbortSignal) => {
  const { conversations } = await apiRequest<{ conversations: TConversation[] }>('/conversations', { signal });
  return conversations;
};

/**
 * POST /api/chats: the sender is the token's account (docs/product.md#identity-from-the-token). The same
 * `clientMessageId` again answers the message already stored (docs/product.md#offline).
 */
export const sendChatMessage = async ({
  recipientId,
  message,
  clientMessageId,
}: {
  recipientId: string;
  message: string;
  clientMessageId?: string;
}) => {
  const answer = await apiRequest<{ message: TChatMessage }>('/chats', {
    method: 'POST',
    body: { recipientId, message, clientMessageId },
  });
  return answer.message;
};

/** POST /api/conversations/:counterpartId/read: what the other side sent is read now. */
const markConversationRead = (counterpartId: string) =>
  apiRequest<{ message: string; read?: number }>(`/conversations/${encodeURIComponent(counterpartId)}/read`, { method: 'POST' });

/** The other participant of a message, seen from the viewer. */
const counterpartOf = (viewer: ChatViewer, message: TChatMessage) =>
  message.senderId === viewer.id ? message.recipientId : message.senderId;

/** Newest page first, so the last message of page 0 is the newest one loaded. */
const newestMessage = (data: Pick<MessagePages, 'pages'> | undefined) => data?.pages[0]?.allMessages.at(-1);

/** The loaded messages oldest first, each once. */
export function flattenMessages(data: Pick<MessagePages, 'pages'> | undefined): TChatMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: TChatMessage[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const m of data.pages[i].allMessages) {
      if (seen.has(m._id)) continue;
      seen.add(m._id);
      out.push(m);
    }
  }
  return out;
}

const byDate = (a: TChatMessage, b: TChatMessage) => a.messageDate.localeCompare(b.messageDate);

/**
 * Adds messages to their loaded conversation, each at most once (dedupe by `_id`). A conversation
 * that is not loaded is left alone: it loads whole when a screen opens it. Answers the messages
 * that were new to the cache.
 */
function addMessages(queryClient: QueryClient, viewer: ChatViewer, counterpartId: string, messages: TChatMessage[]) {
  let added: TChatMessage[] = [];
  queryClient.setQueryData<MessagePages>(chatKeys.messages(viewer.id, counterpartId), (data) => {
    if (!data?.pages.length) return data;
    const known = new Set(data.pages.flatMap((p) => p.allMessages.map((m) => m._id)));
    added = messages.filter((m) => !known.has(m._id) && (known.add(m._id), true));
    if (!added.length) return data;
    const [newest, ...older] = data.pages;
    const merged = [...newest.allMessages, ...added];
    const last = newest.allMessages.at(-1);
    // pushes arrive in order; a catch-up racing a push may not
    if (last && added.some((m) => m.messageDate < last.messageDate)) merged.sort(byDate);
    return { ...data, pages: [{ ...newest, allMessages: merged }, ...older] };
  });
  return added;
}

/**
 * A message sent or received: into its conversation and onto its row of the conversations list
 * (moved to the top; an incoming one counts as unread until a screen marks it read). A row the
 * list does not have yet (a first message) makes the list reload.
 */
export function receiveMessage(queryClient: QueryClient, viewer: ChatViewer, message: TChatMessage) {
  const counterpartId = counterpartOf(viewer, message);
  const added = addMessages(queryClient, viewer, counterpartId, [message]);
  const isConversationLoaded = queryClient.getQueryData(chatKeys.messages(viewer.id, counterpartId)) !== undefined;
  // a loaded conversation that already had it: the row has it too
  if (isConversationLoaded && !added.length) return;
  const isIncoming = message.senderId === counterpartId;
  let isMissing = false;
  queryClient.setQueryData<TConversation[]>(chatKeys.conversations(viewer.id), (rows) => {
    if (!rows) return rows;
    const row = rows.find((r) => r.counterpartId === counterpartId);
    if (!row) {
      isMissing = true;
      return rows;
    }
    if (row.lastMessageDate > message.messageDate) return rows;
    const updated = {
      ...row,
      lastMessage: message.message,
      lastMessageDate: message.messageDate,
      unread: row.unread + (isIncoming && !message.readAt ? 1 : 0),
    };
    return [updated, ...rows.filter((r) => r !== row)];
  });
  if (isMissing) void queryClient.invalidateQueries({ queryKey: chatKeys.conversations(viewer.id) });
}

type ReadFrame = Extract<TWsServerFrame, { type: 'read' }>;

/** Someone read a conversation: the viewer (no unread left) or the other side (the viewer's messages are read). */
export function applyRead(
  queryClient: QueryClient,
  viewer: ChatViewer,
  { userId, trainerId, readerId, readAt }: Omit<ReadFrame, 'type'>,
) {
  const counterpartId = viewer.role === 'user' ? trainerId : userId;
  if (viewer.id !== userId && viewer.id !== trainerId) return;
  const readSender = readerId === viewer.id ? counterpartId : viewer.id;
  queryClient.setQueryData<MessagePages>(chatKeys.messages(viewer.id, counterpartId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            allMessages: p.allMessages.map((m) => (m.senderId === readSender && !m.readAt ? { ...m, readAt } : m)),
          })),
        }
      : data,
  );
  if (readerId === viewer.id) {
    queryClient.setQueryData<TConversation[]>(chatKeys.conversations(viewer.id), (rows) =>
      rows?.map((r) => (r.counterpartId === counterpartId && r.unread ? { ...r, unread: 0 } : r)),
    );
  }
}

/** At most this many `after` pages per conversation in one catch-up; past that it reloads whole. */
const CATCH_UP_PAGES = 10;

/**
 * After a reconnect or a `resync`: every loaded conversation asks for what came after its newest
 * message (`?after=`), and the conversations list reloads. A conversation that cannot catch up
 * (its newest message is gone, too much missed) reloads whole.
 */
export async function catchUp(queryClient: QueryClient, viewer: ChatViewer) {
  const cached = queryClient.getQueriesData<MessagePages>({ queryKey: chatKeys.allMessages(viewer.id) });
  await Promise.all(
    cached.map(async ([key, data]) => {
      const counterpartId = key[3];
      if (typeof counterpartId !== 'string') return;
      let after = newestMessage(data)?._id;
      try {
        for (let i = 0; after && i < CATCH_UP_PAGES; i++) {
          const page = await getMessages({ viewer, counterpartId, after });
          addMessages(queryClient, viewer, counterpartId, page.allMessages);
          if (!page.hasMore) return;
          after = page.allMessages.at(-1)?._id;
        }
      } catch {
        // falls through to a whole reload
      }
      await queryClient.invalidateQueries({ queryKey: key, exact: true });
    }),
  );
  await queryClient.invalidateQueries({ queryKey: chatKeys.conversations(viewer.id) });
}

/** The viewer's conversations; pushes keep them current, so a remount does not refetch. */
export function useConversations(viewer: ChatViewer | null) {
  return useQuery({
    queryKey: chatKeys.conversations(viewer?.id ?? ''),
    queryFn: ({ signal }) => getConversations(signal),
    enabled: viewer !== null,
    staleTime: 60_000,
  });
}

/** The unread messages of all the viewer's conversations. */
export function useUnreadCount(viewer: ChatViewer | null) {
  const { data } = useConversations(viewer);
  return data?.reduce((sum, row) => sum + row.unread, 0) ?? 0;
}

/**
 * One conversation, newest page first; `fetchNextPage` loads the 50 before the oldest loaded.
 * Sends and pushes (with the catch-up after a reconnect) keep it current, so it never refetches
 * on its own: a refetch racing a push could drop the pushed message.
 */
export function useConversationMessages(viewer: ChatViewer, counterpartId: string) {
  return useInfiniteQuery({
    queryKey: chatKeys.messages(viewer.id, counterpartId),
    queryFn: ({ pageParam, signal }) => getMessages({ viewer, counterpartId, before: pageParam }, signal),
    initialPageParam: undefined as Cursor,
    getNextPageParam: (page): Cursor => (page.hasMore ? page.allMessages[0]?._id : undefined),
    staleTime: Infinity,
  });
}

/** Sends a message; the answer goes into the cache at once (the push of it is then a duplicate, and dropped). */
export function useSendMessage(viewer: ChatViewer | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (message) => {
      if (viewer) receiveMessage(queryClient, viewer, message);
    },
  });
}

/** Marks a conversation read; its row's badge clears at once (the `read` push does the same on other devices). */
export function useMarkConversationRead(viewer: ChatViewer | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markConversationRead,
    onSuccess: (_answer, counterpartId) => {
      if (!viewer) return;
      const readAt = new Date().toISOString();
      const [userId, trainerId] = viewer.role === 'user' ? [viewer.id, counterpartId] : [counterpartId, viewer.id];
      applyRead(queryClient, viewer, { userId, trainerId, readerId: viewer.id, readAt });
    },
  });
}

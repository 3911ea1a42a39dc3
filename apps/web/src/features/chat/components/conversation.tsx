import { Clock } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import type { TChatMessage } from '@spotter/shared';
import { ReportButton } from '@/components/report-button';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { flattenMessages, useConversationMessages, useMarkConversationRead, type ChatViewer } from '@/lib/api/chats';
import { pendingFor, useChatOutbox, type OutboxEntry } from '@/lib/chat-outbox';
import { cn } from '@/lib/cn';
import { formatMessageTime } from '@/lib/format';
import { useOnline } from '@/lib/online';
import { MessageComposer } from './message-composer';

// the offer to turn notifications on: its own chunk, loaded after a first send
const PushPrompt = lazy(() => import('@/components/push-notifications').then((m) => ({ default: m.PushPrompt })));

/** Within this many pixels of an edge counts as at it. */
const EDGE_PX = 48;

type ConversationProps = {
  viewer: ChatViewer;
  counterpart: { id: string; firstName: string };
  /** What an empty conversation says. */
  emptyText: string;
  /** The toast after a send. */
  sentMessage: string;
  /** The conversations list says it has unread messages: mark them read even before they load. */
  hasUnread?: boolean;
  refusal?: () => boolean;
  className?: string;
};

/** A message; the other person's have 'Report' (docs/product.md#reports-and-moderation). */
function MessageItem({ message, isMine, senderName }: { message: TChatMessage; isMine: boolean; senderName: string }) {
  const textId = useId();
  const time = (
    <time dateTime={message.messageDate} className="px-1 text-xs text-subtle">
      {formatMessageTime(message.messageDate)}
    </time>
  );
  return (
    <li className={cn('flex max-w-[85%] flex-col gap-1', isMine ? 'ml-auto items-end' : 'mr-auto items-start')}>
      <p
        id={textId}
        className={cn(
          'rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap',
          isMine ? 'rounded-br-md bg-ink text-on-ink' : 'rounded-bl-md bg-surface-strong text-ink',
        )}
      >
        <span className="sr-only">{isMine ? 'You' : senderName}: </span>
        <span>{message.message}</span>
      </p>
      {isMine ? (
        time
      ) : (
        <div className="flex items-center gap-1">
          {time}
          <ReportButton
            kind="message"
            id={message._id}
            subject={`message from ${senderName}`}
            aria-describedby={textId}
            size="sm"
          />
        </div>
      )}
    </li>
  );
}

/**
 * A message of the outbox (docs/product.md#offline): dashed and dimmed, with what happens to it in words
 * (the log announces it); a refused one offers Retry and Delete.
 */
function PendingItem({
  entry,
  isOnline,
  isBehindFailed,
  onRetry,
  onDelete,
}: {
  entry: OutboxEntry;
  isOnline: boolean;
  /** An earlier message of this conversation was refused: this one waits for its Retry or Delete. */
  isBehindFailed: boolean;
  onRetry: () => void;
  onDelete: () => void;
}) {
  const textId = useId();
  const isFailed = entry.state === 'failed';
  let status = 'Sending…';
  if (isFailed) status = `Not sent: ${entry.error ?? 'the server refused it'}`;
  else if (!isOnline) status = 'Waiting for connection';
  else if (isBehindFailed) status = 'Waiting for the message above';
  return (
    <li data-testid="pending-message" data-state={entry.state} className="ml-auto flex max-w-[85%] flex-col items-end gap-1">
      <p
        id={textId}
        className={cn(
          'rounded-2xl rounded-br-md border border-dashed px-3.5 py-2 text-sm break-words whitespace-pre-wrap',
          isFailed ? 'border-danger bg-danger-soft text-ink' : 'border-line-strong bg-surface text-ink',
        )}
      >
        <span className="sr-only">You: </span>
        <span>{entry.message}</span>
      </p>
      <p className={cn('flex items-center gap-1 px-1 text-xs', isFailed ? 'text-danger' : 'text-muted')}>
        {!isFailed && <Clock className="size-3.5" aria-hidden="true" />}
        <span>{status}</span>
      </p>
      {isFailed && (
        <div className="flex gap-1">
          <Button variant="outline" className="px-4" onClick={onRetry} aria-describedby={textId}>
            Retry
          </Button>
          <Button variant="ghost" className="px-4" onClick={onDelete} aria-describedby={textId}>
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}

/**
 * One conversation: its messages (a live log, newest at the bottom, older pages above on demand
 * or on scrolling to the top, keeping the reading position) and the input. Opening it, and any
 * new message from the other side while it is open, marks the conversation read.
 */
export function Conversation({
  viewer,
  counterpart,
  emptyText,
  sentMessage,
  hasUnread = false,
  refusal,
  className,
}: ConversationProps) {
  const query = useConversationMessages(viewer, counterpart.id);
  const { mutate: markRead } = useMarkConversationRead(viewer);
  const messages = flattenMessages(query.data);
  const { outbox, entries } = useChatOutbox(viewer);
  const pending = pendingFor(entries, counterpart.id, messages);
  const isOnline = useOnline();
  const [hasSent, setHasSent] = useState(false);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  const unreadIncoming = messages.findLast((m) => m.senderId === counterpart.id && !m.readAt)?._id;
  useEffect(() => {
    if (unreadIncoming || hasUnread) markRead(counterpart.id);
  }, [unreadIncoming, hasUnread, counterpart.id, markRead]);

  const logRef = useRef<HTMLDivElement>(null);
  /** Distance from the bottom before an older page loads, to restore once it shows. */
  const restoreFromBottom = useRef<number | null>(null);
  const isAtBottom = useRef(true);
  const edges = useRef<{ first?: string; last?: string }>({});
  const firstId = messages[0]?._id;
  const last = messages.at(-1);
  const lastPending = pending.at(-1)?.clientMessageId;

  useLayoutEffect(() => {
    const log = logRef.current;
    const previous = edges.current;
    edges.current = { first: firstId, last: last?._id };
    if (!log) return;
    if (firstId !== previous.first && restoreFromBottom.current !== null && previous.first !== undefined) {
      log.scrollTop = log.scrollHeight - restoreFromBottom.current;
      restoreFromBottom.current = null;
    } else if (last && last._id !== previous.last && (isAtBottom.current || last.senderId !== counterpart.id)) {
      log.scrollTop = log.scrollHeight;
      isAtBottom.current = true;
    }
  }, [firstId, last, counterpart.id]);

  // a message written offline shows at once, at the bottom
  useLayoutEffect(() => {
    const log = logRef.current;
    if (lastPending && log) log.scrollTop = log.scrollHeight;
  }, [lastPending]);

  const loadOlder = () => {
    const log = logRef.current;
    if (!hasNextPage || isFetchingNextPage) return;
    restoreFromBottom.current = log ? log.scrollHeight - log.scrollTop : null;
    void fetchNextPage();
  };

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const log = event.currentTarget;
    isAtBottom.current = log.scrollHeight - log.scrollTop - log.clientHeight < EDGE_PX;
    if (log.scrollTop < EDGE_PX) loadOlder();
  };

  let body;
  if (query.isPending) {
    body = (
      <p role="status" className="m-auto text-sm text-muted">
        Loading...
      </p>
    );
  } else if (query.isError) {
    body = (
      <div role="alert" className="m-auto flex flex-col items-center gap-3 p-4 text-center text-sm text-danger">
        <p className="break-words">{errorMessage(query.error)}</p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }

  return (
    <div className={cn('flex min-h-0 flex-col', className)}>
      {body ?? (
        <div
          ref={logRef}
          role="log"
          aria-live="polite"
          aria-label={`Conversation with ${counterpart.firstName}`}
          tabIndex={0}
          onScroll={onScroll}
          className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-3 focus-visible:outline-offset-[-3px]"
        >
          {hasNextPage && (
            <div className="mb-3 flex justify-center">
              <Button variant="ghost" onClick={loadOlder} isLoading={isFetchingNextPage}>
                Load earlier messages
              </Button>
            </div>
          )}
          {messages.length === 0 && pending.length === 0 ? (
            <p className="py-10 text-center font-display text-lg font-bold text-ink">{emptyText}</p>
          ) : (
            <ol className="flex flex-col gap-3">
              {messages.map((m) => (
                <MessageItem key={m._id} message={m} isMine={m.senderId !== counterpart.id} senderName={counterpart.firstName} />
              ))}
              {pending.map((entry, i) => (
                <PendingItem
                  key={entry.clientMessageId}
                  entry={entry}
                  isOnline={isOnline}
                  isBehindFailed={pending.slice(0, i).some((e) => e.state === 'failed')}
                  onRetry={() => void outbox?.retry(entry.clientMessageId)}
                  onDelete={() => outbox?.remove(entry.clientMessageId)}
                />
              ))}
            </ol>
          )}
        </div>
      )}
      {hasSent && (
        <Suspense fallback={null}>
          <PushPrompt question={`Get a notification when ${counterpart.firstName} replies?`} className="m-3 mb-0" />
        </Suspense>
      )}
      <MessageComposer
        viewer={viewer}
        recipientId={counterpart.id}
        sentMessage={sentMessage}
        refusal={refusal}
        queue={(message, clientMessageId) => {
          if (!outbox?.add({ recipientId: counterpart.id, message, clientMessageId })) return false;
          void outbox.flush();
          return true;
        }}
        hasWaiting={entries.some((e) => e.recipientId === counterpart.id)}
        onSent={() => setHasSent(true)}
      />
    </div>
  );
}

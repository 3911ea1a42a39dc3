import { Link } from 'react-router';
import type { TConversation } from '@spotter/shared';
import { AccountAvatar } from '@/components/account-layout';
import { cn } from '@/lib/cn';
import { formatMessageAge, formatMessageTime } from '@/lib/format';
import { useNow } from '../hooks/use-now';

type ConversationListProps = {
  conversations: TConversation[];
  selectedId: string | null;
};

/** One row per counterpart, newest first: picture, name, latest message, its age and the unread badge. */
export function ConversationList({ conversations, selectedId }: ConversationListProps) {
  const now = useNow();
  return (
    <ul aria-label="Conversations" className="max-h-[360px] divide-y divide-line overflow-y-auto overscroll-contain">
      {conversations.map((c) => {
        const name = `${c.firstName} ${c.lastName}`.trim();
        const isSelected = c.counterpartId === selectedId;
        return (
          <li key={c.counterpartId}>
            <Link
              to={{ search: `?with=${encodeURIComponent(c.counterpartId)}` }}
              aria-current={isSelected ? 'true' : undefined}
              className={cn(
                'flex min-h-16 items-center gap-3 px-3 py-3 transition-colors duration-150 hover:bg-surface',
                isSelected && 'bg-accent-soft hover:bg-accent-soft',
              )}
            >
              <AccountAvatar account={c} className="size-11 text-base" />
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span className={cn('truncate text-ink', c.unread > 0 ? 'font-bold' : 'font-semibold')}>{name}</span>
                  <time
                    dateTime={c.lastMessageDate}
                    title={formatMessageTime(c.lastMessageDate)}
                    className="shrink-0 text-xs text-subtle"
                  >
                    {formatMessageAge(c.lastMessageDate, now)}
                  </time>
                </span>
                <span className="mt-0.5 flex items-center justify-between gap-2">
                  <span className={cn('truncate text-sm', c.unread > 0 ? 'font-semibold text-ink' : 'text-muted')}>
                    {c.lastMessage}
                  </span>
                  {c.unread > 0 && (
                    <span className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-ink px-1.5 text-xs font-bold text-accent">
                      {c.unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

import { MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { useUnreadCount, viewerFromToken } from '@/lib/api/chats';
import { useChatOutbox } from '@/lib/chat-outbox';
import { paths, type Role } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { useChatSocket } from '@/lib/ws-client';
import { useMemo } from 'react';

/**
 * The header's chat icon with the unread count (docs/product.md#chat). It also keeps the tab's chat
 * socket open, and sends the chat outbox, while someone is logged in: the header is on every page.
 */
export function ChatLink({ role }: { role: Role }) {
  useChatSocket();
  const { token } = useSession();
  const viewer = useMemo(() => viewerFromToken(token), [token]);
  const unread = useUnreadCount(viewer);
  // messages written offline go out when the connection returns, whatever page is open (docs/product.md#offline)
  useChatOutbox(viewer);
  const label = unread > 0 ? `Messages, ${unread} unread` : 'Messages';
  return (
    <Link
      to={paths.inbox[role].getHref()}
      aria-label={label}
      title={label}
      className={buttonClasses({ variant: 'on-ink', size: 'icon', className: 'relative' })}
    >
      <MessageCircle className="size-6" aria-hidden="true" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute top-0.5 right-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent px-1 text-xs font-bold text-ink"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}

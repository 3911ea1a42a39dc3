import { ArrowLeft, MessageSquare } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CHAT_MSG, ROLE_MSG } from '@spotter/shared';
import { AccountLayout } from '@/components/account-layout';
import type { OwnAccount } from '@/lib/api/accounts';
import { RequireRole } from '@/components/require-role';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useConversations, type ChatViewer } from '@/lib/api/chats';
import { cn } from '@/lib/cn';
import { paths, type Role } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { Conversation } from './conversation';
import { ConversationList } from './conversation-list';

function InboxSkeleton() {
  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]" aria-hidden="true">
      <Skeleton className="h-72 rounded-card" />
      <Skeleton className="h-[500px] rounded-card max-lg:hidden" />
    </div>
  );
}

const cardClass = 'overflow-hidden rounded-card border border-line bg-canvas shadow-card';

/** Phones and small tablets: one pane at a time (Tailwind's `lg` is 1024 px). */
const PHONE_QUERY = '(max-width: 1023.98px)';
function useIsPhone() {
  const [isPhone, setIsPhone] = useState(() => window.matchMedia?.(PHONE_QUERY).matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.(PHONE_QUERY);
    if (!query) return;
    const onChange = () => setIsPhone(query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);
  return isPhone;
}

/**
 * While `active`, everything in the page but `ref`'s element is inert (out of the tab order and the
 * accessibility tree): the phone's full-screen thread covers the page, so nothing behind it may
 * take the focus.
 */
function useInertOutside(ref: React.RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const made: Element[] = [];
    for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
      for (const sibling of node.parentElement?.children ?? []) {
        if (sibling === node || sibling.hasAttribute('inert') || sibling.tagName === 'SCRIPT') continue;
        sibling.setAttribute('inert', '');
        made.push(sibling);
      }
    }
    return () => made.forEach((sibling) => sibling.removeAttribute('inert'));
  }, [ref, active]);
}

/**
 * The inbox (docs/product.md#chat): conversations on the left, the chosen one on the right; on phones one
 * at a time, with a way back. The chosen conversation is in the address (`?with=`), so Back works.
 */
function Inbox({ role, account }: { role: Role; account: OwnAccount }) {
  const { role: sessionRole } = useSession();
  const viewer = useMemo<ChatViewer>(() => ({ id: account._id, role }), [account._id, role]);
  const conversations = useConversations(viewer);
  const [params] = useSearchParams();
  const selectedId = params.get('with');
  // A conversation not started yet opens empty when the link names the person (the schedule's 'Message <client>').
  const newName = params.get('name');
  const selected =
    conversations.data?.find((c) => c.counterpartId === selectedId) ??
    (selectedId && newName && conversations.data
      ? { counterpartId: selectedId, firstName: newName, lastName: '', unread: 0 }
      : undefined);
  // on a phone the chosen conversation is a full-screen thread, its composer pinned to the bottom
  const isPhone = useIsPhone();
  const isFullScreen = isPhone && !!selected;
  const thread = useRef<HTMLDivElement>(null);
  useInertOutside(thread, isFullScreen);
  // docs/product.md#roles-and-permissions: replying in the trainer inbox is for trainers.
  const refusal = () => {
    if (sessionRole === role) return false;
    notify.error(role === 'trainer' ? ROLE_MSG.loginAsTrainer : ROLE_MSG.onlyUsersMessage);
    return true;
  };

  let list;
  if (conversations.isPending) {
    list = (
      <p role="status" className="p-4 text-sm text-muted">
        Loading...
      </p>
    );
  } else if (conversations.isError) {
    list = (
      <Alert
        tone="error"
        className="m-3"
        action={
          <Button variant="outline" onClick={() => void conversations.refetch()} isLoading={conversations.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(conversations.error)}
      </Alert>
    );
  } else if (conversations.data.length === 0) {
    list = (
      <div className="p-5 text-sm text-muted">
        <p className="font-semibold text-ink">No messages yet.</p>
        {role === 'trainer' ? (
          <p className="mt-1">When a trainee writes to you, the conversation shows up here.</p>
        ) : (
          <>
            <p className="mt-1">Ask a trainer about goals, schedule or an injury before you book.</p>
            <Link to={paths.trainers.getHref()} className={buttonClasses({ variant: 'outline', className: 'mt-4' })}>
              Find a trainer
            </Link>
          </>
        )}
      </div>
    );
  } else {
    list = <ConversationList conversations={conversations.data} selectedId={selectedId} />;
  }

  return (
    <section aria-labelledby="inbox-title" className="space-y-4">
      <h1 id="inbox-title" className="font-display text-3xl font-bold text-ink">
        Messages
      </h1>
      <div className="grid items-start gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <div className={cn(cardClass, selected && 'max-lg:hidden')}>{list}</div>
        <div
          ref={thread}
          data-fullscreen={isFullScreen || undefined}
          className={cn(
            cardClass,
            !selected && 'max-lg:hidden',
            isFullScreen && 'fixed inset-0 z-40 flex flex-col rounded-none border-0 pb-[env(safe-area-inset-bottom)]',
          )}
        >
          {selected ? (
            <>
              <div className="flex items-center gap-2 border-b border-line px-2 py-2 sm:px-4">
                <Link
                  to={{ search: '' }}
                  aria-label="Back to conversations"
                  className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'lg:hidden' })}
                >
                  <ArrowLeft className="size-5" aria-hidden="true" />
                </Link>
                <h2 className="min-w-0 flex-1 truncate font-display text-lg font-bold text-ink">
                  {selected.firstName} {selected.lastName}
                </h2>
                {role === 'user' && (
                  <Link
                    to={paths.trainerPublicProfile.getHref(selected.counterpartId)}
                    className="shrink-0 text-sm font-semibold text-accent-ink underline underline-offset-4 hover:text-ink"
                  >
                    View profile
                  </Link>
                )}
              </div>
              <Conversation
                key={selected.counterpartId}
                viewer={viewer}
                counterpart={{ id: selected.counterpartId, firstName: selected.firstName }}
                emptyText="No messages yet."
                sentMessage={CHAT_MSG.sentFromInbox}
                hasUnread={selected.unread > 0}
                refusal={refusal}
                className={isFullScreen ? 'min-h-0 flex-1' : 'h-[500px]'}
              />
            </>
          ) : (
            <div className="flex h-[500px] flex-col items-center justify-center gap-3 p-6 text-center text-muted">
              <MessageSquare className="size-10 text-subtle" aria-hidden="true" />
              <p>Choose a conversation to read and reply.</p>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

/** `trainer/chat`, `trainer/chatOfTrainer` and `user/chatOfUser`: the logged-in account's inbox. */
export function InboxPage({ role }: { role: Role }) {
  return (
    <RequireRole role={role}>
      <AccountLayout role={role} current="inbox" title="Messages" skeleton={<InboxSkeleton />}>
        {(account) => <Inbox role={role} account={account} />}
      </AccountLayout>
    </RequireRole>
  );
}

import { ArrowLeft, MessageSquare } from 'lucide-react';
import { useMemo } from 'react';
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
        <div className={cn(cardClass, !selected && 'max-lg:hidden')}>
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
                className="h-[500px]"
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

import { MessageCircle, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { CHAT_MSG, ROLE_MSG } from '@spotter/shared';
import { useChatViewer } from '@/lib/api/chats';
import { cn } from '@/lib/cn';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';

// The conversation and its composer (react-hook-form, zod) load only for a user, who may chat; a
// visitor or a trainer gets a toast instead and never needs them.
const loadConversation = () => import('./conversation');
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })));

type ChatPanelProps = {
  trainer: { _id: string; firstName: string; lastName: string };
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
};

/**
 * docs/product.md#roles-and-permissions: only users chat with trainers; a visitor and a trainer get the role's toast
 * instead of the panel. Answers whether the panel may open.
 */
function useChatPermission() {
  const { isLoggedIn, role } = useSession();
  return () => {
    if (!isLoggedIn) {
      notify.message(ROLE_MSG.onlyUsersMessage);
      return false;
    }
    if (role === 'trainer') {
      notify.error(ROLE_MSG.trainersCantMessage);
      return false;
    }
    return true;
  };
}

/**
 * While the panel is open, the focus is in it: on the message field once the conversation's code is
 * here (on the panel until then). When it closes (Escape, its close button), the focus goes back to
 * what opened it (the profile's 'Message' button or the floating button), or to the floating button.
 */
function useFocusWhileOpen(
  isOpen: boolean,
  panel: React.RefObject<HTMLElement | null>,
  fallback: React.RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    const section = panel.current;
    if (!isOpen || !section) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const toggleButton = fallback.current;
    const field = () => section.querySelector<HTMLElement>('textarea, input');
    const focusField = () => {
      const el = field();
      if (el && (document.activeElement === section || document.activeElement === document.body)) el.focus();
      return !!el;
    };
    section.focus();
    let observer: MutationObserver | undefined;
    if (!focusField()) {
      observer = new MutationObserver(() => {
        if (focusField()) observer?.disconnect();
      });
      observer.observe(section, { childList: true, subtree: true });
    }
    return () => {
      observer?.disconnect();
      // the panel is gone: the focus would fall to the page; it goes back where it came from
      const back = opener && opener.isConnected && opener !== section ? opener : toggleButton;
      window.setTimeout(() => back?.focus(), 0);
    };
  }, [isOpen, panel, fallback]);
}

/**
 * The chat on a public trainer profile (docs/product.md#public-trainer-profile): a floating button opens and closes a
 * panel 400 px high with the conversation and its input. The profile holds the open state, so
 * its 'Message' button opens the same panel.
 */
export function ChatPanel({ trainer, isOpen, onOpenChange }: ChatPanelProps) {
  const viewer = useChatViewer();
  const mayChat = useChatPermission();
  const panelId = useId();
  const isShown = isOpen && viewer?.role === 'user';
  const canChat = viewer?.role === 'user';
  useEffect(() => {
    if (canChat) void loadConversation();
  }, [canChat]);
  const panel = useRef<HTMLElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  useFocusWhileOpen(isShown, panel, toggleButton);

  const toggle = () => {
    if (isShown) onOpenChange(false);
    else if (mayChat()) onOpenChange(true);
  };

  return (
    <div className="pointer-events-none fixed bottom-24 left-4 z-30 flex flex-col items-start gap-3 sm:left-6 lg:bottom-6">
      {isShown && (
        <section
          ref={panel}
          id={panelId}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            onOpenChange(false);
          }}
          aria-label={`Chat with ${trainer.firstName}`}
          className="pointer-events-auto flex h-[400px] max-h-[calc(100dvh-12rem)] w-[min(24rem,calc(100vw-2rem))] animate-fade-in flex-col overflow-hidden rounded-card border border-line bg-canvas shadow-card"
        >
          <div className="flex items-center justify-between gap-2 bg-ink py-2 pr-2 pl-4 text-on-ink">
            <h2 className="truncate font-display text-base font-bold">
              {trainer.firstName} {trainer.lastName}
            </h2>
            <button
              type="button"
              onClick={() => onOpenChange(false)}
              aria-label="Close chat"
              className="inline-flex size-11 shrink-0 items-center justify-center rounded-full hover:bg-ink-soft"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>
          {/* until its code is here, the conversation's own loading state (spec: 'Loading...') */}
          <Suspense
            fallback={
              <div className="flex flex-1">
                <p role="status" className="m-auto text-sm text-muted">
                  Loading...
                </p>
              </div>
            }
          >
            <Conversation
              viewer={viewer}
              counterpart={{ id: trainer._id, firstName: trainer.firstName }}
              emptyText="Message Me Now!"
              sentMessage={CHAT_MSG.sentFromProfile}
              refusal={() => !mayChat()}
              className="flex-1"
            />
          </Suspense>
        </section>
      )}
      <button
        ref={toggleButton}
        type="button"
        onClick={toggle}
        aria-expanded={isShown}
        aria-controls={isShown ? panelId : undefined}
        className={cn(
          'pointer-events-auto inline-flex size-14 items-center justify-center rounded-full shadow-card transition-colors duration-150',
          isShown ? 'bg-ink text-on-ink hover:bg-ink-soft' : 'bg-accent text-ink hover:bg-accent-hover',
        )}
      >
        {isShown ? <X className="size-6" aria-hidden="true" /> : <MessageCircle className="size-6" aria-hidden="true" />}
        <span className="sr-only">Chat with {trainer.firstName}</span>
      </button>
    </div>
  );
}

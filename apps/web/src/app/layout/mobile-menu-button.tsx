import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import type { Session } from '@/lib/session';

const loadMenu = () => import('./mobile-menu');
const MobileMenu = lazy(() => loadMenu().then((m) => ({ default: m.MobileMenu })));

type MobileMenuButtonProps = { session: Session; onLogout: () => void };

/**
 * The menu button of small screens. The sheet and its dialog code load on first use (warmed up
 * when the pointer or focus reaches the button), keeping them out of the landing page's JavaScript.
 */
export function MobileMenuButton({ session, onLogout }: MobileMenuButtonProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [wasOpened, setWasOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const warmUp = () => void loadMenu();
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onPointerEnter={warmUp}
        onFocus={warmUp}
        onClick={() => {
          setWasOpened(true);
          setIsOpen(true);
        }}
        className={buttonClasses({ variant: 'on-ink', size: 'icon' })}
      >
        <Menu className="size-6" aria-hidden="true" />
      </button>
      {wasOpened && (
        <Suspense fallback={null}>
          <MobileMenu session={session} onLogout={onLogout} isOpen={isOpen} onOpenChange={setIsOpen} returnFocusTo={buttonRef} />
        </Suspense>
      )}
    </>
  );
}

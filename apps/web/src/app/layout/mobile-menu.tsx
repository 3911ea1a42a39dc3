import { LogOut, UserRound } from 'lucide-react';
import type { RefObject } from 'react';
import { Link, NavLink } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { paths } from '@/lib/paths';
import type { Session } from '@/lib/session';
import { mainNav, pagesNav } from './nav-items';

const itemClass =
  'flex min-h-11 items-center rounded-lg px-3 text-base font-medium text-ink hover:bg-surface aria-[current=page]:bg-accent-soft aria-[current=page]:font-semibold';

export type MobileMenuProps = {
  session: Session;
  onLogout: () => void;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button: focus goes back to it when the sheet closes (Escape, the close button). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
};

/**
 * The navigation on small screens, in a sheet (Radix dialog: focus trapped, Escape closes, focus
 * returns to the menu button). Loaded on demand by mobile-menu-button.tsx.
 */
export function MobileMenu({ session, onLogout, isOpen, onOpenChange, returnFocusTo }: MobileMenuProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogContent title="Menu" variant="sheet" returnFocusTo={returnFocusTo}>
        <nav aria-label="Mobile">
          <ul className="space-y-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={itemClass} onClick={close}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <p className="mt-6 mb-2 px-3 text-xs font-semibold tracking-wide text-subtle uppercase">Pages</p>
          <ul className="space-y-1">
            {pagesNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={itemClass} onClick={close}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-auto space-y-3 border-t border-line pt-5">
          {session.isLoggedIn ? (
            <>
              <Link
                to={paths.profile[session.role ?? 'user'].getHref()}
                onClick={close}
                className={buttonClasses({ variant: 'outline', className: 'w-full' })}
              >
                <UserRound className="size-4" aria-hidden="true" />
                My profile
              </Link>
              <button
                type="button"
                onClick={() => {
                  close();
                  onLogout();
                }}
                className={buttonClasses({ variant: 'ghost', className: 'w-full' })}
              >
                <LogOut className="size-4" aria-hidden="true" />
                Log out
              </button>
            </>
          ) : (
            <>
              <Link to={paths.register.trainer.getHref()} onClick={close} className={buttonClasses({ className: 'w-full' })}>
                Become A Trainer
              </Link>
              <Link
                to={paths.login.user.getHref()}
                onClick={close}
                className={buttonClasses({ variant: 'outline', className: 'w-full' })}
              >
                Log in
              </Link>
              <Link
                to={paths.register.user.getHref()}
                onClick={close}
                className={buttonClasses({ variant: 'ghost', className: 'w-full' })}
              >
                Sign up as a trainee
              </Link>
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

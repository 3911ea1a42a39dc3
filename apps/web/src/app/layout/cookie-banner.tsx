import { Cookie } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { hasCookie, useCookies } from '@/lib/request-cookies';

const COOKIE_NAME = 'cookie-accepted';
const ONE_YEAR_SECONDS = 31_536_000;

const acceptCookies = () => {
  document.cookie = `${COOKIE_NAME}=true; path=/; max-age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
};

const isFocusVisible = (el: Element) => {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true; // a browser without :focus-visible
  }
};

/**
 * While the notice is shown, a control that gets the focus under it is scrolled into view above it
 * (WCAG 2.4.11, focus not obscured): the page's scroll padding keeps the notice's height free at the
 * bottom, and a focused element it still covers is scrolled to the middle. Returns the undo.
 */
function keepFocusUncovered(notice: () => HTMLElement | null) {
  const root = document.documentElement;
  const pad = () => {
    const el = notice();
    root.style.scrollPaddingBottom = el ? `${el.getBoundingClientRect().height + 32}px` : '';
  };
  pad();
  const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(pad) : undefined;
  const el = notice();
  if (el) resize?.observe(el);
  const onFocus = (event: FocusEvent) => {
    const target = event.target;
    const box = notice();
    if (!(target instanceof Element) || !box || box.contains(target)) return;
    // keyboard focus only: scrolling under a pointer between its press and release would lose the click
    if (!isFocusVisible(target)) return;
    const a = target.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    // a control, not a landmark or a section given the focus (the main area after 'Back to top')
    if (a.height > window.innerHeight / 2) return;
    const covered = a.bottom > b.top && a.top < b.bottom && a.right > b.left && a.left < b.right;
    if (covered) target.scrollIntoView({ block: 'center' });
  };
  document.addEventListener('focusin', onFocus);
  return () => {
    resize?.disconnect();
    document.removeEventListener('focusin', onFocus);
    root.style.scrollPaddingBottom = '';
  };
}

/**
 * The cookie notice of docs/product.md#states: shown until accepted, then hidden for as long as the
 * cookie-accepted cookie is true. It is fixed to the bottom of the window (placed by the layout),
 * so it never pushes the page around.
 */
export function CookieBanner({ className }: { className?: string }) {
  const cookies = useCookies();
  const [isAccepted, setIsAccepted] = useState(() => hasCookie(cookies, COOKIE_NAME, 'true'));
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (isAccepted) return;
    return keepFocusUncovered(() => ref.current);
  }, [isAccepted]);
  if (isAccepted) return null;
  return (
    <section
      ref={ref}
      aria-label="Cookie notice"
      className={cn(
        'flex w-full items-center gap-3 rounded-card border border-line bg-canvas p-4 text-ink shadow-card sm:max-w-md',
        className,
      )}
    >
      <Cookie className="hidden size-5 shrink-0 text-accent-ink sm:block" aria-hidden="true" />
      <p className="flex-1 text-sm text-muted">
        We use only essential cookies and storage, to keep you signed in. No ads, no tracking.
      </p>
      <Button
        className="shrink-0"
        onClick={() => {
          acceptCookies();
          setIsAccepted(true);
        }}
      >
        Accept
      </Button>
    </section>
  );
}

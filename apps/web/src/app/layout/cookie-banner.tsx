import { Cookie } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { hasCookie, useCookies } from '@/lib/request-cookies';

const COOKIE_NAME = 'cookie-accepted';
const ONE_YEAR_SECONDS = 31_536_000;

const acceptCookies = () => {
  document.cookie = `${COOKIE_NAME}=true; path=/; max-age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
};

/**
 * The cookie notice of docs/product.md#states: shown until accepted, then hidden for as long as the
 * cookie-accepted cookie is true. It is fixed to the bottom of the window (placed by the layout),
 * so it never pushes the page around.
 */
export function CookieBanner({ className }: { className?: string }) {
  const cookies = useCookies();
  const [isAccepted, setIsAccepted] = useState(() => hasCookie(cookies, COOKIE_NAME, 'true'));
  if (isAccepted) return null;
  return (
    <section
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

import { ArrowUp } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useScrolledPast } from './use-scrolled-past';

/** docs/product.md#limits: the back-to-top button appears after 500 px of scroll. */
const BACK_TO_TOP_OFFSET = 500;

const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * Scrolls smoothly to the top (instantly when reduced motion is asked for) and moves focus to the
 * start of the page content, so a keyboard user continues from the top rather than from a button
 * that has just disappeared.
 */
export function BackToTop({ className }: { className?: string }) {
  const isVisible = useScrolledPast(BACK_TO_TOP_OFFSET);
  if (!isVisible) return null;
  return (
    <button
      type="button"
      aria-label="Back to top"
      title="Back to top"
      onClick={() => {
        window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
        document.getElementById('main')?.focus({ preventScroll: true });
      }}
      className={cn(
        buttonClasses({ size: 'icon', className: 'size-12 shadow-card ring-1 ring-ink/10' }),
        'motion-safe:animate-fade-in',
        className,
      )}
    >
      <ArrowUp className="size-5" aria-hidden="true" />
    </button>
  );
}

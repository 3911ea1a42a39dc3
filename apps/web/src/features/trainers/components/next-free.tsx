import { CalendarClock } from 'lucide-react';
import { formatWeekdayTime } from '@/lib/format';
import { useIsHydrating } from '@/lib/hydration';
import { cn } from '@/lib/cn';

/**
 * 'Next free: Tue 07:00' (docs/product.md#trainer-list-search), in the viewer's time zone, which the
 * server that rendered the page does not know: while the page hydrates the line keeps its place
 * without the time, so nothing moves and the markup matches.
 */
export function NextFree({ at, className }: { at: string; className?: string }) {
  const isHydrating = useIsHydrating();
  return (
    <p
      className={cn('flex items-center gap-1 text-sm', isHydrating && 'invisible', className)}
      aria-hidden={isHydrating || undefined}
    >
      <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
      <span>
        Next free:{' '}
        <time dateTime={at} className="font-semibold">
          {isHydrating ? '' : formatWeekdayTime(at)}
        </time>
      </span>
    </p>
  );
}

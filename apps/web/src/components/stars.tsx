import { Star } from 'lucide-react';
import { cn } from '@/lib/cn';

/** Five stars, the first `value` (rounded) filled; decorative, the caller says the number in words. */
export function Stars({ value, className }: { value: number; className?: string }) {
  const filled = Math.round(value);
  return (
    <span aria-hidden="true" className={cn('inline-flex items-center gap-0.5', className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} className={cn('size-4', n <= filled ? 'fill-accent text-ink' : 'fill-transparent text-line-strong')} />
      ))}
    </span>
  );
}

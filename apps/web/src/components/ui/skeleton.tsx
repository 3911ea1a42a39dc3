import { cn } from '@/lib/cn';

/** A grey placeholder block shown while data loads; hidden from screen readers. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-surface-strong', className)} />;
}

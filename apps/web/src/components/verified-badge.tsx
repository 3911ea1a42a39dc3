import { BadgeCheck } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * 'Verified coach' (docs/product.md#verified-coaches): an operator approved a certificate of the trainer's
 * that has not expired. Said in words, never by colour or the icon alone; shown only when `verified`.
 */
export function VerifiedBadge({ size = 'sm', className }: { size?: 'sm' | 'md'; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex w-fit items-center gap-1 rounded-full border border-success-line bg-success-soft font-semibold whitespace-nowrap text-success',
        size === 'sm' ? 'px-2 py-0.5 text-xs' : 'px-3 py-1 text-sm',
        className,
      )}
    >
      <BadgeCheck className={size === 'sm' ? 'size-3.5 shrink-0' : 'size-4 shrink-0'} aria-hidden="true" />
      Verified coach
    </span>
  );
}

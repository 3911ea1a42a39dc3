import { cn } from '@/lib/cn';

/** The Spotter mark: a barbell with the spotter's head above it, in the accent colour. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-ink" />
      <g className="fill-accent">
        <rect x="4" y="10" width="4" height="12" rx="1.5" />
        <rect x="24" y="10" width="4" height="12" rx="1.5" />
        <rect x="8" y="14.75" width="16" height="2.5" rx="1.25" />
        <circle cx="16" cy="8.5" r="2.5" />
      </g>
    </svg>
  );
}

type LogoProps = { className?: string; tone?: 'ink' | 'light' };

/** Mark and word mark; the word is the accessible name wherever the logo is used. */
export function Logo({ className, tone = 'ink' }: LogoProps) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark className={tone === 'light' ? 'ring-1 ring-ink-line rounded-lg' : undefined} />
      <span className={cn('font-display text-2xl font-bold tracking-tight', tone === 'light' ? 'text-on-ink' : 'text-ink')}>
        Spotter
      </span>
    </span>
  );
}

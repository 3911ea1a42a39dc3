import { cn } from '@/lib/cn';

type SpinnerProps = {
  className?: string;
  /** Read by screen readers; pass `null` when the surrounding control already says it. */
  label?: string | null;
};

export function Spinner({ className, label = 'Loading…' }: SpinnerProps) {
  const icon = (
    <svg className={cn('size-5 animate-spin', className)} viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
  if (label === null) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

import { cn } from '@/lib/cn';

/** A person pressing a barbell overhead, drawn with simple shapes (no stock photos, docs/product.md#design). */
export function Lifter({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 240 240" className={cn('h-auto w-full', className)} aria-hidden="true" focusable="false">
      <g className="fill-on-ink">
        <rect x="30" y="57" width="180" height="7" rx="3.5" />
        <rect x="18" y="36" width="14" height="49" rx="4" />
        <rect x="34" y="43" width="9" height="35" rx="3" />
        <rect x="208" y="36" width="14" height="49" rx="4" />
        <rect x="197" y="43" width="9" height="35" rx="3" />
      </g>
      <g className="stroke-accent" fill="none" strokeWidth="11" strokeLinecap="round" strokeLinejoin="round">
        <path d="M104 122 L90 94 L88 66" />
        <path d="M136 122 L150 94 L152 66" />
        <path d="M110 176 L96 204 L90 226" />
        <path d="M130 176 L144 204 L150 226" />
      </g>
      <g className="fill-accent">
        <circle cx="120" cy="94" r="15" />
        <path d="M101 114 h38 a6 6 0 0 1 6 6 l-7 56 a6 6 0 0 1 -6 5 h-24 a6 6 0 0 1 -6 -5 l-7 -56 a6 6 0 0 1 6 -6 z" />
      </g>
      <rect x="60" y="228" width="120" height="5" rx="2.5" className="fill-on-ink-muted" opacity="0.5" />
    </svg>
  );
}

import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

type SectionCardProps = {
  title: string;
  /** Makes the card a named region reachable by `#id` (a link to it from elsewhere). */
  id?: string;
  /** A link or button at the right of the title. */
  action?: ReactNode;
  /** A small note under the title, e.g. that the content is a sample. */
  note?: ReactNode;
  children: ReactNode;
  className?: string;
};

/** A titled card of an account page's main area (profile, favourites, reviews); its title is the section's heading. */
export function SectionCard({ title, id, action, note, children, className }: SectionCardProps) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn('scroll-mt-24 rounded-card border border-line bg-canvas p-5 shadow-card sm:p-6', className)}
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h2 id={headingId} className="font-display text-xl font-bold text-ink">
            {title}
          </h2>
          {note && <p className="mt-1 text-sm text-subtle">{note}</p>}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/** The link style used for "Edit in settings" style actions on the cards. */
export const cardLinkClass =
  'inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-accent-ink underline underline-offset-4 hover:text-ink';

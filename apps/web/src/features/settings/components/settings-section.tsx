import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

type SettingsSectionProps = {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  tone?: 'default' | 'danger';
};

/** One settings section: a card with its heading, reachable by `#id`. */
export function SettingsSection({ id, title, description, children, tone = 'default' }: SettingsSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn(
        'scroll-mt-24 rounded-card border bg-canvas p-5 shadow-card sm:p-6',
        tone === 'danger' ? 'border-danger-line' : 'border-line',
      )}
    >
      <h2 id={headingId} className="font-display text-xl font-bold text-ink">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-muted">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}

import type { ReactNode } from 'react';
import { CircleCheck } from 'lucide-react';
import { Lifter } from '@/components/illustrations/lifter';
import { LogoMark } from '@/components/ui/logo';

/** The side panel speaks to whoever the screen is for: people who train, or trainers. */
const PANEL = {
  user: {
    lead: 'Train with someone',
    accent: 'in your corner.',
    benefits: ['Trainers in your city', 'Reviews from verified accounts', 'Chat before you book'],
  },
  trainer: {
    lead: 'Grow your coaching',
    accent: 'on your terms.',
    benefits: ['A public profile clients can find', 'Your own hours, notice and place', 'Paid bookings and a live inbox'],
  },
} as const;

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  /** Above the form: status banners. */
  banner?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Whom the side panel speaks to; people who train by default. */
  audience?: 'user' | 'trainer';
};

/** Sign-up, login and password screens: the form, and on wide screens a decorative panel. */
export function AuthLayout({ title, subtitle, banner, children, footer, audience = 'user' }: AuthLayoutProps) {
  const panel = PANEL[audience];
  return (
    <div className="grid flex-1 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <title>{`${title} · Spotter`}</title>
      <aside
        aria-hidden="true"
        data-testid="auth-panel"
        className="relative hidden overflow-hidden bg-ink px-12 py-16 text-on-ink lg:flex lg:flex-col lg:justify-between"
      >
        <div className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-accent/15 blur-2xl" />
        <div className="pointer-events-none absolute -bottom-32 -left-20 size-[28rem] rounded-full border-[3rem] border-accent/10" />
        <div className="relative">
          <p className="font-display text-4xl leading-tight font-bold">
            {panel.lead} <span className="text-accent">{panel.accent}</span>
          </p>
          <ul className="mt-8 space-y-3 text-on-ink-muted">
            {panel.benefits.map((benefit) => (
              <li key={benefit} className="flex items-center gap-3">
                <CircleCheck className="size-5 text-accent" />
                {benefit}
              </li>
            ))}
          </ul>
        </div>
        <Lifter className="relative mx-auto max-w-xs" />
      </aside>

      <div className="flex justify-center bg-surface px-4 py-10 sm:px-6 sm:py-14">
        <div className="w-full max-w-xl">
          <div className="rounded-card border border-line bg-canvas p-6 shadow-card sm:p-10">
            <LogoMark className="size-11" />
            <h1 className="mt-5 font-display text-3xl font-bold text-ink">{title}</h1>
            {subtitle && <div className="mt-2 text-muted">{subtitle}</div>}
            {banner && <div className="mt-6">{banner}</div>}
            <div className="mt-6">{children}</div>
          </div>
          {footer && <div className="mt-6 text-center text-sm text-muted">{footer}</div>}
        </div>
      </div>
    </div>
  );
}

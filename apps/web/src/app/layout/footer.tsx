import { Link } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { NewsletterForm } from '@/features/newsletter/components/newsletter-form';
import { paths } from '@/lib/paths';
import { PaymentLogos } from './payment-logos';

const companyLinks = [
  { label: 'Our team', to: paths.team.getHref() },
  { label: 'What it costs', to: paths.pricing.getHref() },
  { label: 'Articles and tips', to: paths.blog.getHref() },
  { label: 'Coach on Spotter', to: paths.register.trainer.getHref() },
];

const usefulLinks = [
  { label: 'Find a trainer', to: paths.trainers.getHref() },
  { label: 'Calculate your BMI', to: paths.bmi.getHref() },
  { label: 'Create an account', to: paths.register.user.getHref() },
  { label: 'Trainer sign-in', to: paths.login.trainer.getHref() },
  { label: 'Reset your password', to: paths.forgotPassword.getHref() },
];

function LinkList({ title, links }: { title: string; links: { label: string; to: string }[] }) {
  return (
    <div>
      <h2 className="font-display text-base font-semibold text-on-ink">{title}</h2>
      <ul className="mt-3 space-y-1">
        {links.map((link) => (
          <li key={link.label}>
            <Link
              to={link.to}
              className="inline-flex min-h-9 items-center text-sm text-on-ink-muted transition-colors hover:text-accent"
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  return (
    <footer className="on-ink mt-auto bg-ink text-on-ink">
      <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-[1.3fr_1fr_1fr_1.6fr]">
        <div>
          <Logo tone="light" />
          <p className="mt-4 max-w-xs text-sm text-on-ink-muted">
            Personal trainers you can trust, with honest reviews, chat and booking in one place. Helping people train better since
            2010.
          </p>
        </div>
        <LinkList title="Company" links={companyLinks} />
        <LinkList title="Useful links" links={usefulLinks} />
        <div className="space-y-6">
          <div>
            <h2 className="font-display text-base font-semibold text-on-ink">Newsletter</h2>
            <p className="mt-1 mb-4 text-sm text-on-ink-muted">Training tips and new coaches, once a month.</p>
            <NewsletterForm />
          </div>
          <PaymentLogos />
        </div>
      </div>
      <div className="border-t border-ink-line">
        <p className="mx-auto w-full max-w-7xl px-4 py-5 text-sm text-on-ink-muted sm:px-6">
          {/* the UTC year: the server renders it too, in another zone (docs/decisions/031-server-rendered-first-page.md) */}©{' '}
          {new Date().getUTCFullYear()} Spotter. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

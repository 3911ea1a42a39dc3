import { CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export function VerificationFailedPage() {
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <title>Verification link invalid · Spotter</title>
      <span className="flex size-16 items-center justify-center rounded-full bg-danger-soft text-danger">
        <CircleAlert className="size-9" aria-hidden="true" />
      </span>
      <h1 className="mt-6 font-display text-3xl font-bold text-ink sm:text-4xl">This link is invalid or has expired</h1>
      <p className="mt-3 text-muted">
        Verification links work once and only for a limited time. Log in to your account and press{' '}
        <strong className="font-semibold text-ink">Resend</strong> on the reminder at the top of the page, and we will e-mail you
        a new link.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.login.user.getHref()} className={buttonClasses({ size: 'lg' })}>
          Log in as a trainee
        </Link>
        <Link to={paths.login.trainer.getHref()} className={buttonClasses({ size: 'lg', variant: 'outline' })}>
          Log in as a trainer
        </Link>
      </div>
    </section>
  );
}

import { CircleCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths, roleFrom } from '@/lib/paths';
import { useSession } from '@/lib/session';

/** Where the verification mail's link lands (docs/product.md#e-mail-verification). */
export function VerificationSuccessPage() {
  const [params] = useSearchParams();
  const role = roleFrom(params.get('role'), 'trainer');
  // The link opened a second time (`?already=1`): the account was verified the first time.
  const isAlready = params.get('already') === '1';
  // someone already signed in (the link opened in the tab they use) continues to their profile
  const session = useSession();
  const signedInAs = session.isLoggedIn ? session.role : null;
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <title>Account verified · Spotter</title>
      <span className="flex size-16 items-center justify-center rounded-full bg-success-soft text-success">
        <CircleCheck className="size-9" aria-hidden="true" />
      </span>
      <h1 className="mt-6 font-display text-3xl font-bold text-ink sm:text-4xl">
        {isAlready ? 'Your account is already verified' : 'Your account has been verified successfully!'}
      </h1>
      <p className="mt-3 text-muted">
        {isAlready ? 'There is nothing more to do with this link.' : 'Your e-mail is confirmed.'}{' '}
        {signedInAs ? 'Continue where you left off.' : 'Log in to pick up where you left off.'}
      </p>
      {signedInAs ? (
        <Link to={paths.profile[signedInAs].getHref()} className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
          Continue
        </Link>
      ) : (
        <Link to={paths.login[role].getHref()} className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
          Login now!
        </Link>
      )}
    </section>
  );
}

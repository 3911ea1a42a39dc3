import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export function NotFoundPage() {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <title>Page Not Found · Spotter</title>
      <p className="font-display text-7xl font-black text-ink sm:text-8xl" aria-hidden="true">
        404
      </p>
      <p className="mt-4 text-lg font-semibold text-accent-ink">Oh ! no</p>
      <h1 className="mt-1 font-display text-3xl font-bold text-ink sm:text-4xl">Page Not Found</h1>
      <p className="mt-3 max-w-md text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home.getHref()} className={buttonClasses({ className: 'mt-8' })}>
        Back to home
      </Link>
    </section>
  );
}

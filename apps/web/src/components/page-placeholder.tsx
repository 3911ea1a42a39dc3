import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { paths } from '@/lib/paths';
import { buttonClasses } from './ui/button';

type PagePlaceholderProps = {
  title: string;
  children: ReactNode;
  eyebrow?: string;
  backTo?: string;
  backLabel?: string;
};

/** A tidy page for a screen whose capability comes in a later release. */
export function PagePlaceholder({
  title,
  children,
  eyebrow = 'Coming soon',
  backTo = paths.home.getHref(),
  backLabel = 'Back to home',
}: PagePlaceholderProps) {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col items-start px-4 py-20 sm:px-6 sm:py-28">
      <title>{`${title} · Spotter`}</title>
      <p className="mb-3 rounded-full bg-accent-soft px-3 py-1 text-xs font-semibold tracking-wide text-accent-ink uppercase">
        {eyebrow}
      </p>
      <h1 className="font-display text-4xl font-bold text-ink sm:text-5xl">{title}</h1>
      <p className="mt-4 max-w-xl text-lg text-muted">{children}</p>
      <Link to={backTo} className={buttonClasses({ variant: 'outline', className: 'mt-8' })}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        {backLabel}
      </Link>
    </section>
  );
}

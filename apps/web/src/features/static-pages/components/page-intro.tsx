import type { ReactNode } from 'react';

type PageIntroProps = { eyebrow: string; title: string; children?: ReactNode };

/** The opening of a static page: eyebrow, the page's one h1 and a lead paragraph. */
export function PageIntro({ eyebrow, title, children }: PageIntroProps) {
  return (
    <header className="max-w-3xl">
      <title>{`${title} · Spotter`}</title>
      <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">{eyebrow}</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-ink sm:text-5xl">{title}</h1>
      {children && <p className="mt-4 text-lg text-muted">{children}</p>}
    </header>
  );
}

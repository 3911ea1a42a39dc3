import { ArrowRight, BadgeCheck, CalendarCheck, MessageCircle, Star } from 'lucide-react';
import { Link } from 'react-router';
import { Lifter } from '@/components/illustrations/lifter';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';

const promises = [
  { icon: BadgeCheck, label: 'Reviews from verified accounts' },
  { icon: MessageCircle, label: 'Chat before you book' },
  // The server refunds a paid session only when it is cancelled more than 24 h ahead.
  { icon: CalendarCheck, label: 'Free cancellation up to 24 h ahead' },
];

export function Hero() {
  return (
    <section className="on-ink relative overflow-hidden bg-ink text-on-ink">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 -left-40 size-[36rem] rounded-full bg-accent/10 blur-3xl"
      />
      <div className="relative mx-auto grid w-full max-w-7xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 md:grid-cols-[1.15fr_1fr] md:pt-20 md:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-ink-line bg-ink-soft px-3 py-1 text-sm font-medium text-on-ink-muted">
            <span className="size-2 rounded-full bg-accent" aria-hidden="true" />
            Since 2010
          </p>
          <h1 className="mt-5 font-display text-5xl leading-[1.02] font-extrabold tracking-tight sm:text-6xl lg:text-7xl">
            Shape Your <span className="text-accent">Ideal Body</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-on-ink-muted">
            Find a personal trainer who fits your goals and your budget. Compare honest reviews, chat before you book, and train
            with someone in your corner.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to={paths.trainers.getHref()} className={buttonClasses({ size: 'lg' })}>
              Find your trainer
              <ArrowRight className="size-5" aria-hidden="true" />
            </Link>
            <Link
              to={paths.bmi.getHref()}
              className={buttonClasses({ size: 'lg', variant: 'on-ink', className: 'border border-ink-line' })}
            >
              Check your BMI
            </Link>
          </div>
          <ul className="mt-10 grid gap-3 text-sm text-on-ink-muted sm:grid-cols-3">
            {promises.map(({ icon: Icon, label }) => (
              <li key={label} className="flex items-center gap-2">
                <Icon className="size-5 shrink-0 text-accent" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>

        <div aria-hidden="true" className="relative mx-auto hidden w-full max-w-md md:block">
          <div className="relative aspect-square rounded-[2.5rem] border border-ink-line bg-ink-soft p-10">
            <div className="absolute inset-10 rounded-full bg-accent/15" />
            <Lifter className="relative" />
          </div>
          <div className="absolute top-10 -left-8 flex items-center gap-3 rounded-2xl bg-canvas px-4 py-3 text-ink shadow-card">
            <span className="flex size-9 items-center justify-center rounded-full bg-accent">
              <Star className="size-5 fill-ink" />
            </span>
            <span className="text-sm leading-tight">
              <span className="block font-semibold">Rated by trainees</span>
              <span className="text-muted">with verified e-mails</span>
            </span>
          </div>
          <div className="absolute -right-6 bottom-12 flex items-center gap-3 rounded-2xl bg-canvas px-4 py-3 text-ink shadow-card">
            <span className="flex size-9 items-center justify-center rounded-full bg-ink text-accent">
              <CalendarCheck className="size-5" />
            </span>
            <span className="text-sm leading-tight">
              <span className="block font-semibold">Session booked</span>
              <span className="text-muted">Tuesday, 7:00</span>
            </span>
          </div>
        </div>
      </div>
    </section>
  );
}

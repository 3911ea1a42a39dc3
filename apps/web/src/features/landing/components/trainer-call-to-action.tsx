import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export function TrainerCallToAction() {
  return (
    <section aria-labelledby="coach-title" className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
      <div className="on-ink relative overflow-hidden rounded-[2rem] bg-ink px-6 py-12 text-on-ink sm:px-12 sm:py-14">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-16 -bottom-24 size-80 rounded-full border-[2.5rem] border-accent/20"
        />
        <div className="relative max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-accent uppercase">For coaches</p>
          <h2 id="coach-title" className="mt-2 font-display text-3xl font-bold sm:text-4xl">
            Grow your client list with Spotter
          </h2>
          <p className="mt-3 text-lg text-on-ink-muted">
            Set your own price and hours, answer trainees in real time and get paid for every session booked, less a 10% fee.
          </p>
          <Link to={paths.register.trainer.getHref()} className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
            Join as a trainer
            <ArrowRight className="size-5" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </section>
  );
}

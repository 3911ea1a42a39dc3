import { Quote, Star } from 'lucide-react';
import { cn } from '@/lib/cn';
import { testimonials } from '../data/testimonials';

function Stars({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`${rating} out of 5 stars`} className="flex gap-0.5">
      {Array.from({ length: 5 }, (_, index) => (
        <Star
          key={index}
          aria-hidden="true"
          className={cn('size-4', index < rating ? 'fill-accent-ink text-accent-ink' : 'text-line-strong')}
        />
      ))}
    </span>
  );
}

/** "Trusted by Our Customers": six static stories (docs/product.md#numbers-from-data). */
export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Testimonials</p>
        <h2 id="testimonials-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
          Trusted by Our Customers
        </h2>
        <p className="mt-3 text-lg text-muted">What trainees say after a few months with their Spotter coach.</p>
      </div>
      {/* On phones a row to swipe through (focusable, so it scrolls by keyboard too); a grid from tablets up. */}
      <div
        role="region"
        aria-label="Customer stories"
        tabIndex={0}
        className="-mx-4 mt-10 snap-x snap-mandatory scroll-px-4 overflow-x-auto px-4 pb-4 md:mx-0 md:overflow-visible md:px-0 md:pb-0"
      >
        <ul className="flex gap-4 md:grid md:grid-cols-2 md:gap-5 lg:grid-cols-3">
          {testimonials.map((item) => (
            <li key={item.name} className="w-[85%] shrink-0 snap-start md:w-auto">
              <figure className="flex h-full flex-col rounded-card border border-line bg-canvas p-6">
                <div className="flex items-center justify-between">
                  <Stars rating={item.rating} />
                  <Quote className="size-6 text-accent-ink" aria-hidden="true" />
                </div>
                <blockquote className="mt-4 flex-1 text-ink">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="mt-5 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ink font-display text-sm font-bold text-accent"
                  >
                    {item.name.charAt(0)}
                  </span>
                  <span className="text-sm leading-tight">
                    <span className="block font-semibold text-ink">{item.name}</span>
                    <span className="text-muted">{item.context}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

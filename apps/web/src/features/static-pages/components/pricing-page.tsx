import { Check } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';
import { pricingPlans, type BillingPeriod, type PricingPlan } from '../data/pricing-plans';
import { BillingPeriodToggle } from './billing-period-toggle';
import { PageIntro } from './page-intro';
import { formatPrice } from '@/lib/format';

const faqs = [
  {
    question: 'Do trainees pay anything to use Spotter?',
    answer:
      'No subscription and no sign-up fee. Trainees pay each trainer’s own price per session, shown on the profile before booking.',
  },
  {
    question: 'Can I choose Pro or Studio today?',
    answer:
      'Not yet. Every coach is on Starter, with a 10% fee per paid session. Pro and Studio open later, and nothing changes for you until you choose one.',
  },
  {
    question: 'What happens when a trainee cancels?',
    answer:
      'A paid session cancelled more than 24 hours before it starts is refunded in full to the trainee, and no fee is charged. Closer to the start, it is not refunded.',
  },
];

function PriceBlock({ plan, period }: { plan: PricingPlan; period: BillingPeriod }) {
  const amount = plan.price[period];
  return (
    <div className="mt-6" data-testid={`price-${plan.name}`}>
      <p className="flex items-baseline gap-1">
        <span className="font-display text-5xl font-extrabold text-ink">{formatPrice(amount)}</span>
        <span className="text-muted">{period === 'monthly' ? '/ month' : '/ year'}</span>
      </p>
      <p className="mt-1 h-5 text-sm text-subtle">
        {amount === 0
          ? 'Free, for as long as you like'
          : period === 'yearly'
            ? `${formatPrice(amount / 12, 2)} a month, billed once a year`
            : 'Billed monthly, cancel any time'}
      </p>
    </div>
  );
}

export function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-14 sm:px-6 sm:py-20">
      <PageIntro eyebrow="Company" title="Pricing">
        Trainees pay only for the sessions they book, at each trainer’s own price. Coaches pick the plan that fits their business.
      </PageIntro>

      <div className="mt-10">
        <BillingPeriodToggle value={period} onChange={setPeriod} />
      </div>

      <ul className="mt-8 grid gap-5 lg:grid-cols-3">
        {pricingPlans.map((plan) => (
          <li
            key={plan.name}
            className={cn(
              'relative flex flex-col rounded-card border bg-canvas p-7',
              plan.isFeatured ? 'border-ink shadow-card ring-1 ring-ink' : 'border-line',
            )}
          >
            {plan.isFeatured && (
              <p className="absolute -top-3 left-7 rounded-full bg-accent px-3 py-0.5 text-xs font-semibold text-ink">
                Available now
              </p>
            )}
            <h2 className="font-display text-2xl font-bold text-ink">{plan.name}</h2>
            <p className="mt-1 text-muted">{plan.tagline}</p>
            <PriceBlock plan={plan} period={period} />
            <ul className="mt-6 flex-1 space-y-3">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2.5 text-ink">
                  <Check className="mt-0.5 size-5 shrink-0 text-accent-ink" aria-hidden="true" />
                  {feature}
                </li>
              ))}
            </ul>
            {plan.isComingSoon ? (
              <p className="mt-8 flex min-h-11 w-full items-center justify-center rounded-full border border-dashed border-line-strong text-sm font-semibold text-muted">
                Coming soon
              </p>
            ) : (
              <Link
                to={paths.register.trainer.getHref()}
                className={buttonClasses({
                  variant: plan.isFeatured ? 'primary' : 'outline',
                  className: 'mt-8 w-full',
                })}
              >
                {plan.cta}
              </Link>
            )}
          </li>
        ))}
      </ul>

      <section aria-labelledby="faq-title" className="mt-20 max-w-3xl">
        <h2 id="faq-title" className="font-display text-3xl font-bold text-ink">
          Questions, answered
        </h2>
        <div className="mt-6 divide-y divide-line rounded-card border border-line">
          {faqs.map((faq) => (
            <details key={faq.question} className="group px-5">
              <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 font-semibold text-ink [&::-webkit-details-marker]:hidden">
                {faq.question}
                <span aria-hidden="true" className="text-xl text-subtle transition-transform duration-150 group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="pb-5 text-muted">{faq.answer}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}

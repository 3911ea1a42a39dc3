export type BillingPeriod = 'monthly' | 'yearly';

export type PricingPlan = {
  name: string;
  tagline: string;
  /** Dollars per period; 0 is free. */
  price: Record<BillingPeriod, number>;
  features: string[];
  cta: string;
  isFeatured?: boolean;
  /** Only Starter exists today (every trainer is on it, docs/decisions/014-booking-payments.md); the others say so. */
  isComingSoon?: boolean;
};

/** Plans for coaches. Trainees pay only each trainer's own session price. Yearly = ten months. */
export const pricingPlans: PricingPlan[] = [
  {
    name: 'Starter',
    tagline: 'For coaches taking their first clients online.',
    price: { monthly: 0, yearly: 0 },
    features: [
      'Public profile with reviews and ratings',
      'Real-time chat with trainees',
      'Online booking and card payments',
      '10% fee per paid session',
    ],
    cta: 'Start for free',
    isFeatured: true,
  },
  {
    name: 'Pro',
    tagline: 'For full-time coaches with a growing client list.',
    price: { monthly: 19, yearly: 190 },
    features: [
      'Everything in Starter',
      '5% fee per paid session',
      'Highlighted in search for your city',
      'Monthly report on profile views and bookings',
    ],
    cta: 'Choose Pro',
    isComingSoon: true,
  },
  {
    name: 'Studio',
    tagline: 'For gyms and studios with a team of coaches.',
    price: { monthly: 49, yearly: 490 },
    features: [
      'Up to five coach profiles',
      'No fee per paid session',
      'One shared schedule for the whole team',
      'Priority support by e-mail and phone',
    ],
    cta: 'Choose Studio',
    isComingSoon: true,
  },
];

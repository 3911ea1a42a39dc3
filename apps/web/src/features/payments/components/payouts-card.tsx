import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PayoutHistory } from '@/components/payout-history';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { paths } from '@/lib/paths';

/** A trainer's payouts (GET /api/payouts), reachable as `#payouts` from settings. */
export function PayoutsCard() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#payouts') document.getElementById('payouts')?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <SectionCard
      id="payouts"
      title="Payouts"
      note="Newest first. Payouts are sent through PayPal to your payout address."
      action={
        <Link to={`${paths.settings.trainer.getHref()}#payouts`} className={cardLinkClass}>
          Payout address
        </Link>
      }
    >
      <PayoutHistory label="Payouts" />
    </SectionCard>
  );
}

import { PagePlaceholder } from '@/components/page-placeholder';

export function PricingPage() {
  return (
    <PagePlaceholder title="Pricing" eyebrow="Company">
      Every trainer sets their own price per session, shown on their profile before you book. Plans for trainers will
      be listed here.
    </PagePlaceholder>
  );
}

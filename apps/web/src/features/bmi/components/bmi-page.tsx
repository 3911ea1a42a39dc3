import { PagePlaceholder } from '@/components/page-placeholder';

export function BmiPage() {
  return (
    <PagePlaceholder title="BMI Calculator">
      Enter your height and weight to see your body mass index and what it means. The calculator arrives here shortly.
    </PagePlaceholder>
  );
}

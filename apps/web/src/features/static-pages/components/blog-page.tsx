import { PagePlaceholder } from '@/components/page-placeholder';

export function BlogPage() {
  return (
    <PagePlaceholder title="Latest Gym Blog & News" eyebrow="Blog">
      Training advice, nutrition basics and news from the Spotter community. The first articles are being written.
    </PagePlaceholder>
  );
}

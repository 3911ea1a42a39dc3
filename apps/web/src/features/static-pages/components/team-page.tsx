import { PagePlaceholder } from '@/components/page-placeholder';

export function TeamPage() {
  return (
    <PagePlaceholder title="Our team" eyebrow="Company">
      Meet the coaches and engineers who have been helping people train with confidence since 2010. Profiles of the
      team are on their way.
    </PagePlaceholder>
  );
}

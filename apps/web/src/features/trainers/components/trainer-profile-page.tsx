import { PagePlaceholder } from '@/components/page-placeholder';
import { paths } from '@/lib/paths';

export function TrainerProfilePage() {
  return (
    <PagePlaceholder title="Trainer profile" backTo={paths.trainers.getHref()} backLabel="Back to trainers">
      Each trainer's profile, with price, reviews, chat and booking, will be shown on this page.
    </PagePlaceholder>
  );
}

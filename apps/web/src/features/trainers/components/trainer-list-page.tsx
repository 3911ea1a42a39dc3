import { PagePlaceholder } from '@/components/page-placeholder';

export function TrainerListPage() {
  return (
    <PagePlaceholder title="Find your trainer">
      Browse certified personal trainers, compare prices and reviews, and save your favourites. The trainer list opens
      here very soon.
    </PagePlaceholder>
  );
}

import { RatingDistribution } from '@/features/reviews/components/rating-distribution';
import { ReviewSection } from '@/features/reviews/components/review-section';
import { TrainerProfilePage, type TrainerProfileSections } from '@/features/trainers/components/trainer-profile-page';

const sections: TrainerProfileSections = {
  ratingBreakdown: (trainer) => <RatingDistribution trainerId={trainer._id} />,
  reviews: (trainer) => <ReviewSection key={trainer._id} trainerId={trainer._id} firstName={trainer.firstName} />,
};

/** The public trainer profile with the reviews feature in it (features do not import each other). */
export function TrainerProfileRoute() {
  return <TrainerProfilePage sections={sections} />;
}

import { BookingDialog } from '@/features/bookings/components/booking-dialog';
import { ChatPanel } from '@/features/chat/components/chat-panel';
import { RatingDistribution } from '@/features/reviews/components/rating-distribution';
import { ReviewSection } from '@/features/reviews/components/review-section';
import { TrainerProfilePage, type TrainerProfileSections } from '@/features/trainers/components/trainer-profile-page';

const sections: TrainerProfileSections = {
  ratingBreakdown: (trainer) => <RatingDistribution trainerId={trainer._id} />,
  reviews: (trainer) => <ReviewSection key={trainer._id} trainerId={trainer._id} firstName={trainer.firstName} />,
  booking: (trainer, { isOpen, onOpenChange }) => <BookingDialog trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} />,
  chat: (trainer, { isOpen, onOpenChange }) => <ChatPanel trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} />,
};

/** The public trainer profile with the reviews and bookings features in it (features do not import each other). */
export function TrainerProfileRoute() {
  return <TrainerProfilePage sections={sections} />;
}

import { useParams } from 'react-router';
import { BookingDialog } from '@/features/bookings/components/booking-dialog';
import { ChatPanel } from '@/features/chat/components/chat-panel';
import { RatingDistribution } from '@/features/reviews/components/rating-distribution';
import { ReviewSection } from '@/features/reviews/components/review-section';
import { TrainerProfilePage, type TrainerProfileSections } from '@/features/trainers/components/trainer-profile-page';
import { NotFoundPage } from '../not-found-page';

const sections: TrainerProfileSections = {
  ratingBreakdown: (trainer) => <RatingDistribution trainerId={trainer._id} />,
  reviews: (trainer, { isOwn }) => (
    <ReviewSection key={trainer._id} trainerId={trainer._id} firstName={trainer.firstName} isOwnProfile={isOwn} />
  ),
  booking: (trainer, { isOpen, onOpenChange }) => <BookingDialog trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} />,
  chat: (trainer, { isOpen, onOpenChange }) => <ChatPanel trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} />,
};

const isDecodable = (value: string) => {
  try {
    decodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
};

/** The public trainer profile with the reviews and bookings features in it (features do not import each other). */
export function TrainerProfileRoute() {
  const { id = '' } = useParams();
  // A malformed address (`/trainer/profile/%E0%A4%A`) names no trainer: the app's not-found screen.
  if (!isDecodable(id)) return <NotFoundPage />;
  return <TrainerProfilePage sections={sections} />;
}

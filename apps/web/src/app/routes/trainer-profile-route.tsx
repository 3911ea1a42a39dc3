import { lazy, Suspense, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ProfilePackages } from '@/features/bookings/components/trainer-packages';
import { ChatPanel } from '@/features/chat/components/chat-panel';
import { RatingDistribution } from '@/features/reviews/components/rating-distribution';
import { ReviewSection } from '@/features/reviews/components/review-section';
import { TrainerProfilePage, type TrainerProfileSections } from '@/features/trainers/components/trainer-profile-page';
import type { TTrainerProfile } from '@spotter/shared';
import { useSession } from '@/lib/session';
import { NotFoundPage } from '../not-found-page';

// The booking dialog (and its dialog code) loads only for a user, who may book; a visitor or a
// trainer gets a toast from 'Book now!' instead and never needs it.
const loadBookingDialog = () => import('@/features/bookings/components/booking-dialog');
const BookingDialog = lazy(() => loadBookingDialog().then((m) => ({ default: m.BookingDialog })));

type BookingProps = {
  trainer: TTrainerProfile;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onMessage: () => void;
};

function BookingOnDemand({ trainer, isOpen, onOpenChange, onMessage }: BookingProps) {
  const { role } = useSession();
  const [wasOpened, setWasOpened] = useState(isOpen);
  if (isOpen && !wasOpened) setWasOpened(true);
  useEffect(() => {
    if (role === 'user') void loadBookingDialog();
  }, [role]);
  if (!wasOpened) return null;
  return (
    <Suspense fallback={null}>
      <BookingDialog trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} onMessage={onMessage} />
    </Suspense>
  );
}

const sections: TrainerProfileSections = {
  ratingBreakdown: (trainer) => <RatingDistribution trainerId={trainer._id} />,
  reviews: (trainer, { isOwn }) => (
    <ReviewSection key={trainer._id} trainerId={trainer._id} firstName={trainer.firstName} isOwnProfile={isOwn} />
  ),
  booking: (trainer, { isOpen, onOpenChange, onMessage }) => (
    <BookingOnDemand trainer={trainer} isOpen={isOpen} onOpenChange={onOpenChange} onMessage={onMessage} />
  ),
  packages: (trainer) => <ProfilePackages key={trainer._id} trainer={trainer} />,
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

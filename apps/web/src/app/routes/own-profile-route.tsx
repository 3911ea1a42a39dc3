import { MySessions } from '@/features/bookings/components/my-sessions';
import { MyWaitlist } from '@/features/bookings/components/my-waitlist';
import { WeekSchedule } from '@/features/bookings/components/week-schedule';
import { FavoriteTrainers } from '@/features/favourites/components/favorite-trainers';
import { OwnProfilePage, type ProfileSections } from '@/features/profile/components/own-profile-page';
import { LatestReviews } from '@/features/reviews/components/latest-reviews';
import type { Role } from '@/lib/paths';

const sections: ProfileSections = {
  sessions: (
    <>
      <MySessions />
      <MyWaitlist />
    </>
  ),
  schedule: <WeekSchedule />,
  favorites: <FavoriteTrainers />,
  latestReviews: ({ trainerId, isListed }) => <LatestReviews trainerId={trainerId} isListed={isListed} />,
};

/** The own profile with the bookings, favourites and reviews features in it (features do not import each other). */
export function OwnProfileRoute({ role }: { role: Role }) {
  return <OwnProfilePage role={role} sections={sections} />;
}

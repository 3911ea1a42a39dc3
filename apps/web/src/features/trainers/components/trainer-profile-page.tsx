import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  ArrowLeft,
  CalendarCheck,
  CalendarClock,
  CalendarCog,
  MapPin,
  MessageCircle,
  PenLine,
  Star,
  UsersRound,
} from 'lucide-react';
import type { TTrainerProfile } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { FavoriteButton } from '@/components/favorite-button';
import { ReportButton } from '@/components/report-button';
import { Stars } from '@/components/stars';
import { VerifiedBadge } from '@/components/verified-badge';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useOwnAccount } from '@/lib/api/accounts';
import { useBookings } from '@/lib/api/bookings';
import { useTrainer } from '@/lib/api/trainers';
import { formatCount, formatPrice, formatRating, plural } from '@/lib/format';
import { useIsHydrating } from '@/lib/hydration';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { useTrainerActions } from '../hooks/use-trainer-actions';
import { lastTrainerListHref } from '../utils/last-search';
import { NextFree } from './next-free';

/** What the reviews and bookings features show on the profile, passed in by the route (features do not import each other). */
export type TrainerProfileSections = {
  ratingBreakdown: (trainer: TTrainerProfile) => ReactNode;
  /** `isOwn`: the trainer is looking at their own profile (no review form). */
  reviews: (trainer: TTrainerProfile, viewer: { isOwn: boolean }) => ReactNode;
  /** The dialog 'Book now!' opens for a user. */
  booking: (
    trainer: TTrainerProfile,
    dialog: { isOpen: boolean; onOpenChange: (isOpen: boolean) => void; onMessage: () => void },
  ) => ReactNode;
  /** The trainer's packages with Buy (docs/product.md#packages), and a user's balance with them. */
  packages?: (trainer: TTrainerProfile) => ReactNode;
  /** The chat panel (floating button and panel); 'Message' opens it for a user. */
  chat?: (trainer: TTrainerProfile, panel: { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) => ReactNode;
};

type BookingActionProps = {
  trainer: TTrainerProfile;
  onBook: () => void;
  isOwn: boolean;
  onMessage?: () => void;
  /** The person holds an unpaid time with this trainer: 'Book now!' reads 'Continue to payment'. */
  hasHold: boolean;
};

/** A user's own unpaid hold with this trainer that has not lapsed (docs/product.md#booking-and-payment). */
function useHasOwnHold(trainerId: string) {
  const { token, role } = useSession();
  const bookings = useBookings(token, { enabled: role === 'user' });
  const now = Date.now();
  return (
    bookings.data?.some(
      (b) => b.trainerId === trainerId && b.status === 'pending' && b.holdExpiresAt !== null && Date.parse(b.holdExpiresAt) > now,
    ) ?? false
  );
}

/** The next free time, or that none is open in the bookable two weeks. */
function NextFreeLine({ nextFreeAt }: { nextFreeAt: string | null }) {
  if (nextFreeAt) return <NextFree at={nextFreeAt} className="gap-2 text-ink [&>svg]:size-5 [&>svg]:text-subtle" />;
  return (
    <p className="flex items-center gap-2 text-muted">
      <CalendarClock className="size-5 text-subtle" aria-hidden="true" />
      No free times in the next 14 days
    </p>
  );
}

/** The trainer looking at their own public profile: their id is their own account's. */
function useIsOwnProfile(trainerId: string) {
  const { role } = useSession();
  const own = useOwnAccount(role === 'trainer' ? 'trainer' : null);
  return role === 'trainer' && own.data?._id === trainerId;
}

/**
 * 'Report profile' for a signed-in person on someone else's profile (docs/product.md#reports-and-moderation); a trainer
 * gets it once their own account says this profile is not theirs.
 */
function useCanReportProfile(trainerId: string) {
  const { isLoggedIn, role } = useSession();
  const own = useOwnAccount(role === 'trainer' ? 'trainer' : null);
  if (!isLoggedIn) return false;
  return role !== 'trainer' || (own.data !== undefined && own.data._id !== trainerId);
}

/** On their own profile a trainer sees it as others do, with a way to change it instead of booking. */
function EditProfileLink({ className }: { className?: string }) {
  return (
    <Link to={paths.settings.trainer.getHref()} className={buttonClasses({ size: 'lg', className })}>
      <PenLine className="size-5" aria-hidden="true" />
      Edit profile
    </Link>
  );
}

function OwnAvailabilityLink({ className }: { className?: string }) {
  return (
    <Link
      to={`${paths.settings.trainer.getHref()}#availability`}
      className={buttonClasses({ variant: 'outline', size: 'lg', className })}
    >
      <CalendarCog className="size-5" aria-hidden="true" />
      Edit your availability
    </Link>
  );
}

const reviewCountText = (count: number) => (count === 0 ? 'No reviews yet' : plural(count, 'review', 'reviews'));

function BackLink() {
  // Read once: the list the person came from, with their search (sessionStorage, this tab only),
  // which a page rendered on the server links to only once it is hydrated.
  const [href] = useState(lastTrainerListHref);
  const isHydrating = useIsHydrating();
  return (
    <Link
      to={isHydrating ? paths.trainers.getHref() : href}
      className="inline-flex min-h-11 items-center gap-2 rounded-full text-sm font-semibold text-muted hover:text-ink"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      All trainers
    </Link>
  );
}

/** Price, rating, subscribers and the two actions: sticky beside the profile on desktop. */
function BookingCard({ trainer, onBook, isOwn, onMessage, hasHold }: BookingActionProps) {
  const { book, message } = useTrainerActions(trainer.firstName, { onBook, onMessage });
  return (
    <div className="rounded-card border border-line bg-canvas p-6 shadow-card">
      <p className="text-2xl font-bold text-ink">Price: {formatPrice(trainer.price)}</p>
      <p className="text-sm text-subtle">per one-hour session</p>
      <div className="mt-5 space-y-3 text-sm">
        <NextFreeLine nextFreeAt={trainer.nextFreeAt} />
        <p className="flex items-center gap-2 text-ink">
          <Star className="size-5 fill-accent text-ink" aria-hidden="true" />
          {trainer.ratingCount > 0 && (
            <span>
              <span className="font-semibold">{formatRating(trainer.rating)}</span>
              <span className="sr-only"> out of 5</span> ·
            </span>
          )}
          <span className="text-muted">{reviewCountText(trainer.ratingCount)}</span>
        </p>
        {/* Issue 11: a count of zero says nothing good; it shows once someone has paid for a session. */}
        {trainer.subscribers > 0 && (
          <p className="flex items-center gap-2 text-muted">
            <UsersRound className="size-5 text-subtle" aria-hidden="true" />
            <span>
              Subscribers: <span className="font-semibold text-ink">{formatCount(trainer.subscribers)}</span>
            </span>
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-col gap-3">
        {isOwn ? (
          <>
            <EditProfileLink className="w-full max-lg:hidden" />
            <OwnAvailabilityLink className="w-full" />
          </>
        ) : (
          <>
            <Button size="lg" className="w-full max-lg:hidden" onClick={book}>
              <CalendarCheck className="size-5" aria-hidden="true" />
              {hasHold ? 'Continue to payment' : 'Book now!'}
            </Button>
            <Button variant="outline" size="lg" className="w-full" aria-label={`Message ${trainer.firstName}`} onClick={message}>
              <MessageCircle className="size-5" aria-hidden="true" />
              Message
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

/** Read by the root layout (app/layout/root-layout.tsx); 0 px when the bar is hidden (desktop). */
const BOTTOM_BAR_VAR = '--bottom-bar-height';

/** Phones: the price and 'Book now!' stay at the bottom of the screen. */
function MobileBookingBar({ trainer, onBook, isOwn, hasHold }: BookingActionProps) {
  const { book } = useTrainerActions(trainer.firstName, { onBook });
  const barRef = useRef<HTMLDivElement>(null);
  // The layout's floating corner (back to top, cookie notice) reads this to sit above the bar.
  useEffect(() => {
    const root = document.documentElement;
    const measure = () => root.style.setProperty(BOTTOM_BAR_VAR, `${barRef.current?.offsetHeight ?? 0}px`);
    measure();
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('resize', measure);
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, []);
  return (
    <div
      ref={barRef}
      data-testid="booking-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-canvas/95 px-4 py-3 shadow-card backdrop-blur lg:hidden"
    >
      <div className="mx-auto flex max-w-3xl items-center justify-between gap-4">
        <p className="text-ink">
          <span className="text-lg font-bold">{formatPrice(trainer.price)}</span>
          <span className="text-sm text-subtle"> / session</span>
        </p>
        {isOwn ? (
          <EditProfileLink />
        ) : (
          <Button size="lg" onClick={book}>
            {hasHold ? 'Continue to payment' : 'Book now!'}
          </Button>
        )}
      </div>
    </div>
  );
}

function TrainerProfile({ trainer, sections }: { trainer: TTrainerProfile; sections: TrainerProfileSections }) {
  const fullName = `${trainer.firstName} ${trainer.lastName}`;
  const [isBookingOpen, setIsBookingOpen] = useState(false);
  const isOwn = useIsOwnProfile(trainer._id);
  const canReport = useCanReportProfile(trainer._id);
  const openBooking = () => setIsBookingOpen(true);
  const [isChatOpen, setIsChatOpen] = useState(false);
  const hasHold = useHasOwnHold(trainer._id);
  return (
    <>
      <title>{`${fullName} · Spotter`}</title>
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-12">
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          <div className="relative w-full max-w-64 shrink-0 sm:w-56">
            {/* the page's largest paint: fetched first (a page rendered on the server preloads it from its head) */}
            <img
              src={trainer.picture}
              alt={fullName}
              width={224}
              height={224}
              fetchPriority="high"
              className="aspect-square w-full rounded-card bg-surface object-cover"
            />
            {!isOwn && (
              <FavoriteButton trainerId={trainer._id} firstName={trainer.firstName} className="absolute top-3 right-3" />
            )}
          </div>
          <div className="min-w-0">
            <h1 className="text-4xl font-bold break-words text-ink sm:text-5xl">{fullName}</h1>
            {trainer.verified && <VerifiedBadge size="md" className="mt-3" />}
            {trainer.title && <p className="mt-2 text-lg font-medium text-muted">{trainer.title}</p>}
            {trainer.city && (
              <p className="mt-2 flex items-center gap-1.5 text-subtle">
                <MapPin className="size-4" aria-hidden="true" />
                {[trainer.city, trainer.country].filter(Boolean).join(', ')}
              </p>
            )}
            <p className="mt-3 flex items-center gap-2 text-sm">
              <Stars value={trainer.rating} />
              <span className="font-semibold text-ink">{trainer.ratingCount > 0 ? formatRating(trainer.rating) : 'New'}</span>
              <span className="text-subtle">({reviewCountText(trainer.ratingCount)})</span>
            </p>
            {canReport && (
              <ReportButton
                kind="profile"
                id={trainer._id}
                subject={`profile of ${fullName}`}
                label="Report profile"
                className="mt-2 -ml-3"
              />
            )}
          </div>
        </div>

        <aside aria-label="Booking" className="lg:sticky lg:top-24 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start">
          <BookingCard
            trainer={trainer}
            onBook={openBooking}
            isOwn={isOwn}
            onMessage={() => setIsChatOpen(true)}
            hasHold={hasHold}
          />
        </aside>

        <div className="min-w-0 space-y-10">
          <section aria-labelledby="about-heading">
            <h2 id="about-heading" className="text-2xl font-bold text-ink">
              About {trainer.firstName}
            </h2>
            <p className="mt-3 break-words whitespace-pre-line text-muted">
              {trainer.description || `${trainer.firstName} has not written an introduction yet.`}
            </p>
          </section>

          {sections.packages?.(trainer)}

          <section aria-labelledby="reviews-heading" className="space-y-6">
            <h2 id="reviews-heading" className="text-2xl font-bold text-ink">
              Reviews
            </h2>
            <div className="grid gap-6 rounded-card border border-line p-5 sm:grid-cols-[10rem_minmax(0,1fr)] sm:p-6">
              <div>
                <p className="text-5xl font-bold text-ink">{trainer.ratingCount > 0 ? formatRating(trainer.rating) : '–'}</p>
                <Stars value={trainer.rating} className="mt-2" />
                <p className="mt-1 text-sm text-muted">{reviewCountText(trainer.ratingCount)}</p>
              </div>
              {sections.ratingBreakdown(trainer)}
            </div>
            {sections.reviews(trainer, { isOwn })}
          </section>
        </div>
      </div>
      <MobileBookingBar trainer={trainer} onBook={openBooking} isOwn={isOwn} hasHold={hasHold} />
      {sections.booking(trainer, {
        isOpen: isBookingOpen,
        onOpenChange: setIsBookingOpen,
        onMessage: () => setIsChatOpen(true),
      })}
      {!isOwn && sections.chat?.(trainer, { isOpen: isChatOpen, onOpenChange: setIsChatOpen })}
    </>
  );
}

function ProfileSkeleton() {
  return (
    <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-12" aria-hidden="true">
      <div className="space-y-8">
        <div className="flex flex-col gap-6 sm:flex-row">
          <Skeleton className="aspect-square w-full max-w-64 rounded-card sm:w-56" />
          <div className="flex-1 space-y-3">
            <Skeleton className="h-10 w-3/4" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-1/3" />
          </div>
        </div>
        <div className="space-y-3">
          <Skeleton className="h-7 w-40" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
        </div>
      </div>
      <Skeleton className="h-64 rounded-card" />
    </div>
  );
}

/** The public trainer profile (docs/product.md#public-trainer-profile, docs/product.md#design). */
export function TrainerProfilePage({ sections }: { sections: TrainerProfileSections }) {
  const { id = '' } = useParams();
  const trainer = useTrainer(id);

  let content;
  if (trainer.isPending) {
    content = (
      <>
        <title>Trainer · Spotter</title>
        <p role="status" className="sr-only">
          Loading the trainer…
        </p>
        <ProfileSkeleton />
      </>
    );
  } else if (trainer.isError && trainer.error instanceof ApiError && trainer.error.status === 404) {
    content = (
      <div className="flex flex-col items-start py-16">
        <title>Trainer not found · Spotter</title>
        <h1 className="text-4xl font-bold text-ink">Trainer not found</h1>
        <p className="mt-3 max-w-lg text-lg text-muted">
          This trainer may have left Spotter, or the link is not complete. Plenty of others are ready to train you.
        </p>
        <Link to={paths.trainers.getHref()} className={buttonClasses({ className: 'mt-8' })}>
          Browse all trainers
        </Link>
      </div>
    );
  } else if (trainer.isError) {
    content = (
      <div className="py-10">
        <title>Trainer · Spotter</title>
        <h1 className="mb-4 text-3xl font-bold text-ink">Trainer profile</h1>
        <Alert
          tone="error"
          title="Could not load this trainer"
          action={
            <Button variant="outline" onClick={() => void trainer.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(trainer.error)}
        </Alert>
      </div>
    );
  } else {
    content = <TrainerProfile trainer={trainer.data} sections={sections} />;
  }

  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-6 pb-28 sm:px-6 lg:pb-16">
      <BackLink />
      {content}
    </div>
  );
}

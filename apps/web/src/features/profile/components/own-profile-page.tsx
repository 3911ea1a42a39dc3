import { Mail, MapPin, Phone, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TOwnTrainer } from '@spotter/shared';
import { AccountLayout } from '@/components/account-layout';
import { RequireRole } from '@/components/require-role';
import { Skeleton } from '@/components/ui/skeleton';
import type { OwnAccount } from '@/lib/api/accounts';
import { useFavoriteTrainers } from '@/lib/api/favorites';
import { useTrainer } from '@/lib/api/trainers';
import { formatPhone, formatPrice, formatRating } from '@/lib/format';
import { paths, type Role } from '@/lib/paths';
import { BodyMetricsCard } from './body-metrics-card';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { SamplePlans, SamplePosts } from './sample-content';

/**
 * What other features show on the profile, passed in by the route (features do not import each
 * other): the user's sessions and favourite trainers, the trainer's week and latest reviews.
 */
export type ProfileSections = {
  sessions: ReactNode;
  schedule: ReactNode;
  favorites: ReactNode;
  latestReviews: (trainer: { trainerId: string; isListed: boolean }) => ReactNode;
};

const isTrainer = (account: OwnAccount): account is TOwnTrainer => account.role === 'trainer';

function ProfileSkeleton() {
  return (
    <div className="space-y-6" aria-hidden="true">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24 rounded-card" />
        ))}
      </div>
      <Skeleton className="h-56 rounded-card" />
      <Skeleton className="h-40 rounded-card" />
    </div>
  );
}

type Stat = { label: string; value: ReactNode; hint?: string };

/** Numbers that come from data; `null` while loading shows a placeholder. */
function StatList({ stats, label }: { stats: Stat[]; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {stats.map((stat) => (
        <div key={stat.label} className="flex flex-col rounded-card border border-line bg-canvas p-4 shadow-card">
          <dt className="text-sm font-semibold text-subtle">{stat.label}</dt>
          <dd className="order-first font-display text-2xl font-bold text-ink sm:text-3xl">{stat.value}</dd>
          {stat.hint && <dd className="mt-0.5 text-xs text-subtle">{stat.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}

const Pending = ({ label }: { label: string }) => (
  <>
    <Skeleton className="my-1 h-7 w-12" />
    <span className="sr-only">Loading {label}</span>
  </>
);

function DetailRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="relative min-w-0 pl-12">
      <dt className="text-sm font-semibold text-subtle">
        <span className="absolute top-0.5 left-0 flex size-9 items-center justify-center rounded-full bg-surface text-ink">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="break-words text-ink">{children}</dd>
    </div>
  );
}

function AboutCard({ role, account }: { role: Role; account: OwnAccount }) {
  const place = [account.city, account.country].filter(Boolean).join(', ');
  const settingsLink = (
    <Link to={paths.settings[role].getHref()} className={cardLinkClass}>
      Edit in settings
    </Link>
  );
  return (
    <SectionCard title="About" action={settingsLink}>
      {account.description ? (
        <p className="break-words whitespace-pre-line text-muted">{account.description}</p>
      ) : (
        <p className="text-subtle italic">
          No description yet. Tell people about your goals{role === 'trainer' ? ' and how you coach' : ''} in Settings.
        </p>
      )}
      <dl className="mt-5 grid gap-4 sm:grid-cols-2">
        <DetailRow icon={<Mail className="size-4" aria-hidden="true" />} label="E-mail">
          {account.email}
        </DetailRow>
        <DetailRow icon={<Phone className="size-4" aria-hidden="true" />} label="Phone">
          {account.phone ? formatPhone(account.phone) : <span className="text-subtle">Not set</span>}
        </DetailRow>
        <DetailRow icon={<MapPin className="size-4" aria-hidden="true" />} label="City and country">
          {place || <span className="text-subtle">Not set</span>}
        </DetailRow>
      </dl>
    </SectionCard>
  );
}

function UserProfile({
  account,
  favoritesSection,
  sessions,
}: {
  account: OwnAccount;
  favoritesSection: ReactNode;
  sessions: ReactNode;
}) {
  const favorites = useFavoriteTrainers();
  return (
    <div className="space-y-6">
      <h2 className="sr-only">Overview</h2>
      <StatList
        label="Your numbers"
        stats={[
          {
            label: 'Favourite trainers',
            value: favorites.isPending ? <Pending label="favourites" /> : favorites.isError ? '–' : favorites.data.length,
          },
          { label: 'Height', value: account.height ? `${account.height} cm` : '–' },
          { label: 'Weight', value: account.weight ? `${account.weight} kg` : '–' },
          { label: 'Age', value: account.age || '–' },
        ]}
      />
      {sessions}
      <AboutCard role="user" account={account} />
      <BodyMetricsCard account={account} />
      {favoritesSection}
      <SamplePlans />
      <SamplePosts />
    </div>
  );
}

function TrainerProfile({
  account,
  latestReviews,
  schedule,
}: {
  account: TOwnTrainer;
  latestReviews: ProfileSections['latestReviews'];
  schedule: ReactNode;
}) {
  // Only verified trainers are listed (docs/product.md#e-mail-verification); an unlisted one has no public profile yet,
  // and a hidden one has none for anyone else (docs/product.md#reports-and-moderation; the layout says why).
  const isListed = account.emailVerified && !account.profileHidden;
  const publicProfile = useTrainer(account._id, { enabled: isListed });
  const subscribers = !isListed ? (
    '–'
  ) : publicProfile.isPending ? (
    <Pending label="subscribers" />
  ) : publicProfile.isError ? (
    '–'
  ) : (
    publicProfile.data.subscribers
  );
  return (
    <div className="space-y-6">
      <h2 className="sr-only">Overview</h2>
      <StatList
        label="Your numbers"
        stats={[
          {
            label: 'Rating',
            value:
              account.ratingCount > 0 ? (
                <span className="inline-flex items-center gap-1.5">
                  <Star className="size-6 fill-current" aria-hidden="true" />
                  {formatRating(account.rating)}
                </span>
              ) : (
                'New'
              ),
            hint: account.ratingCount > 0 ? 'out of 5' : 'No ratings yet',
          },
          { label: 'Reviews', value: account.ratingCount },
          { label: 'Price', value: formatPrice(account.price), hint: 'per session' },
          {
            label: 'Subscribers',
            value: subscribers,
            hint: isListed ? 'Clients with a paid booking' : 'Shown once your profile is public',
          },
        ]}
      />
      {isListed && (
        <p className="text-sm text-muted">
          This is your private view.{' '}
          <Link to={paths.trainerPublicProfile.getHref(account._id)} className={cardLinkClass}>
            See your public profile
          </Link>
        </p>
      )}
      {schedule}
      <AboutCard role="trainer" account={account} />
      {/* a trainer's dashboard is about their business: no trainee content (workout ideas, trainee posts) */}
      {latestReviews({ trainerId: account._id, isListed })}
    </div>
  );
}

/** The logged-in account's own profile (docs/product.md#own-profile). */
export function OwnProfilePage({ role, sections }: { role: Role; sections: ProfileSections }) {
  return (
    <RequireRole role={role}>
      <AccountLayout role={role} current="profile" title="My profile" skeleton={<ProfileSkeleton />}>
        {(account) =>
          isTrainer(account) ? (
            <TrainerProfile account={account} latestReviews={sections.latestReviews} schedule={sections.schedule} />
          ) : (
            <UserProfile account={account} favoritesSection={sections.favorites} sessions={sections.sessions} />
          )
        }
      </AccountLayout>
    </RequireRole>
  );
}

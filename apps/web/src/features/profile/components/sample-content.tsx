import { Dumbbell, Flame, HeartPulse, Newspaper } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { cardLinkClass, SectionCard } from '@/components/section-card';

/**
 * Static example content (docs/product.md#numbers-from-data: content with no data behind it stays static). It is
 * labelled as examples and carries no numbers that could pass for the account's own.
 */
const plans = [
  {
    Icon: Dumbbell,
    name: 'Strength foundations',
    detail: 'Squat, bench, deadlift and rows: three full-body days a week.',
  },
  {
    Icon: Flame,
    name: 'Fat loss circuit',
    detail: 'Short intervals and kettlebell complexes, four sessions a week.',
  },
  {
    Icon: HeartPulse,
    name: 'Mobility and cardio',
    detail: 'Easy runs and a daily 15-minute stretch for better recovery.',
  },
];

const posts = [
  {
    title: 'How to pick a personal trainer',
    teaser: 'Five questions to ask before your first session, and the answers to listen for.',
  },
  {
    title: 'Progressive overload, simply explained',
    teaser: 'Why adding a little every week beats going all out once.',
  },
];

export function SamplePlans() {
  return (
    <SectionCard title="Workout plan ideas" note="Examples to get you started; not tailored to you yet.">
      <ul className="grid gap-3 md:grid-cols-3">
        {plans.map(({ Icon, name, detail }) => (
          <li key={name} className="rounded-xl bg-surface p-4">
            <span className="flex size-10 items-center justify-center rounded-full bg-ink text-accent">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h3 className="mt-3 font-semibold text-ink">{name}</h3>
            <p className="mt-1 text-sm text-muted">{detail}</p>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

export function SamplePosts() {
  return (
    <SectionCard
      title="From the blog"
      action={
        <Link to={paths.blog.getHref()} className={cardLinkClass}>
          All articles
        </Link>
      }
    >
      <ul className="grid gap-3 md:grid-cols-2">
        {posts.map((post) => (
          <li key={post.title} className="flex gap-3 rounded-xl border border-line p-4">
            <Newspaper className="mt-0.5 size-5 shrink-0 text-accent-ink" aria-hidden="true" />
            <div>
              <h3 className="font-semibold text-ink">{post.title}</h3>
              <p className="mt-1 text-sm text-muted">{post.teaser}</p>
            </div>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

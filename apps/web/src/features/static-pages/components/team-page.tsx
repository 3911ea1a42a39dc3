import { ArrowRight, Eye, HeartHandshake, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';
import { PageIntro } from './page-intro';
import { initials } from '@/lib/format';

const members = [
  {
    name: 'Hazem Ali',
    role: 'Co-founder and CEO',
    bio: 'Ran the gym Spotter grew out of. Still trains five mornings a week and answers trainer e-mails himself.',
  },
  {
    name: 'Salma Adel',
    role: 'Head of Coaching',
    bio: 'Strength coach for fourteen years. Writes the standards every Spotter trainer is checked against.',
  },
  {
    name: 'Karim Nabil',
    role: 'Strength coach',
    bio: 'Helps beginners find their first good squat and seasoned lifters their next personal best.',
  },
  {
    name: 'Nour Hassan',
    role: 'Nutrition and fat-loss coach',
    bio: 'Believes in habits over diets, and has the client notebooks to prove that it works.',
  },
  {
    name: 'Dina Samir',
    role: 'Mobility specialist',
    bio: 'Former dancer who now keeps desk workers and marathon runners moving without pain.',
  },
  {
    name: 'Mariam Lotfy',
    role: 'Head of Product',
    bio: 'Makes sure booking a session takes less time than lacing your shoes.',
  },
];

const values = [
  {
    icon: Eye,
    title: 'Honest by default',
    text: 'We never edit a review, and every price is shown before you book.',
  },
  {
    icon: HeartHandshake,
    title: 'Coaches come first',
    text: 'Trainers set their own prices and hours. Good coaching is a craft, and we pay it the respect it deserves.',
  },
  {
    icon: Lock,
    title: 'Your data stays yours',
    text: 'No advertising trackers, no selling of data. Your body measurements are shown to no one but you.',
  },
];

export function TeamPage() {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-14 sm:px-6 sm:py-20">
      <PageIntro eyebrow="Company" title="Our team">
        Coaches and builders who have been helping people train with confidence since 2010.
      </PageIntro>

      <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {members.map((member, index) => (
          <li key={member.name} className="flex gap-4 rounded-card border border-line bg-canvas p-6">
            <span
              aria-hidden="true"
              className={cn(
                'flex size-14 shrink-0 items-center justify-center rounded-2xl font-display text-lg font-bold',
                index % 2 === 0 ? 'bg-ink text-accent' : 'bg-accent text-ink',
              )}
            >
              {initials(...member.name.split(' '))}
            </span>
            <div>
              <h2 className="font-display text-lg font-semibold text-ink">{member.name}</h2>
              <p className="text-sm font-medium text-accent-ink">{member.role}</p>
              <p className="mt-2 text-muted">{member.bio}</p>
            </div>
          </li>
        ))}
      </ul>

      <section aria-labelledby="values-title" className="mt-20">
        <h2 id="values-title" className="font-display text-3xl font-bold text-ink">
          What we stand for
        </h2>
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          {values.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-card bg-surface p-6">
              <Icon className="size-6 text-accent-ink" aria-hidden="true" />
              <h3 className="mt-4 font-display text-lg font-semibold text-ink">{title}</h3>
              <p className="mt-1 text-muted">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="join-title"
        className="on-ink mt-20 flex flex-col items-start gap-5 rounded-[2rem] bg-ink p-8 text-on-ink sm:p-12 md:flex-row md:items-center md:justify-between"
      >
        <div>
          <h2 id="join-title" className="font-display text-2xl font-bold sm:text-3xl">
            Coach with us
          </h2>
          <p className="mt-2 max-w-xl text-on-ink-muted">
            Set your price and hours, and meet trainees who are looking for exactly what you teach.
          </p>
        </div>
        <Link to={paths.register.trainer.getHref()} className={buttonClasses({ size: 'lg' })}>
          Join as a trainer
          <ArrowRight className="size-5" aria-hidden="true" />
        </Link>
      </section>
    </div>
  );
}

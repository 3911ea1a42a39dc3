import { BicepsFlexed, Dumbbell, Flame, HeartPulse } from 'lucide-react';

const programmes = [
  {
    icon: BicepsFlexed,
    title: 'Flex Muscle',
    text: 'Hypertrophy blocks that add lean muscle with progressive, well-coached volume.',
  },
  {
    icon: Dumbbell,
    title: 'Strength',
    text: 'Squat, bench and deadlift technique with a plan that makes every week count.',
  },
  {
    icon: HeartPulse,
    title: 'Physical Fitness',
    text: 'Conditioning, mobility and endurance for a body that feels good every day.',
  },
  {
    icon: Flame,
    title: 'Fat Loss',
    text: 'Training and habits that burn fat steadily, without crash diets.',
  },
];

export function Programmes() {
  return (
    <section aria-labelledby="programmes-title" className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Programmes</p>
        <h2 id="programmes-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
          A coach for every goal
        </h2>
        <p className="mt-3 text-lg text-muted">
          Whatever you are training for, there is a Spotter trainer who has helped people get there before.
        </p>
      </div>
      <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {programmes.map(({ icon: Icon, title, text }) => (
          <li
            key={title}
            className="group rounded-card border border-line bg-canvas p-6 transition-shadow duration-200 hover:shadow-card"
          >
            <span className="flex size-12 items-center justify-center rounded-2xl bg-ink text-accent">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <h3 className="mt-5 font-display text-xl font-semibold text-ink">{title}</h3>
            <p className="mt-2 text-muted">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

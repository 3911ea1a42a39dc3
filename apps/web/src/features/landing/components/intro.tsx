import { HeartHandshake, ShieldCheck, Timer } from 'lucide-react';

const pillars = [
  {
    icon: ShieldCheck,
    title: 'Coaches we have checked',
    text: 'Every trainer verifies their account before they appear on Spotter, and sets a clear price per session.',
  },
  {
    icon: HeartHandshake,
    title: 'Reviews you can trust',
    text: 'Every rating comes from a Spotter member, one per coach, and reviews after a paid session are marked as verified.',
  },
  {
    icon: Timer,
    title: 'Your time respected',
    text: 'Book one-hour sessions around your week, and cancel for free up to 24 hours before.',
  },
];

/** "Since 2010": who Spotter is, before the pictures and the programmes. */
export function Intro() {
  return (
    <section aria-labelledby="intro-title" className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
      <div className="grid gap-10 lg:grid-cols-[1fr_1.2fr] lg:gap-16">
        <div>
          <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">About Spotter</p>
          <h2 id="intro-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
            Helping people train with a coach since 2010
          </h2>
          <p className="mt-4 text-lg text-muted">
            We started as a small gym that kept a list of coaches our members trusted. That list became Spotter: a place to find a
            personal trainer who is good at what you need, fits your budget and turns up on time.
          </p>
        </div>
        <ul className="grid gap-6 sm:grid-cols-3 lg:grid-cols-1">
          {pillars.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent-ink">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-display text-lg font-semibold text-ink">{title}</h3>
                <p className="mt-1 text-muted">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

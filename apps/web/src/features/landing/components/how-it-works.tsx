const steps = [
  {
    title: 'Browse trainers',
    text: 'Filter by goal, price and rating, and read reviews from people who trained with them.',
  },
  {
    title: 'Chat first',
    text: 'Ask about experience, schedule or an injury before you commit to anything.',
  },
  {
    title: 'Book and train',
    text: 'Pick a time that suits you, pay securely, and cancel for free up to 24 hours before.',
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="bg-surface">
      <div className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
        <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">How it works</p>
        <h2 id="how-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
          From first message to first rep
        </h2>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-card bg-canvas p-6 shadow-card">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-accent font-display text-lg font-bold text-ink"
              >
                {index + 1}
              </span>
              <h3 className="mt-5 font-display text-xl font-semibold text-ink">{step.title}</h3>
              <p className="mt-2 text-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

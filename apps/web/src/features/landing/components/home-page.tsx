import { Hero } from './hero';
import { HowItWorks } from './how-it-works';
import { Programmes } from './programmes';
import { TrainerCallToAction } from './trainer-call-to-action';

/** The landing page: renders at once, no artificial spinner (DECISIONS 22). */
export function HomePage() {
  return (
    <>
      <title>Spotter · Find your personal trainer</title>
      <Hero />
      <Programmes />
      <HowItWorks />
      <TrainerCallToAction />
    </>
  );
}

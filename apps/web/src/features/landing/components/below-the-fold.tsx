import { Gallery } from './gallery';
import { GymSchedule } from './gym-schedule';
import { HowItWorks } from './how-it-works';
import { Intro } from './intro';
import { LatestPosts } from './latest-posts';
import { Programmes } from './programmes';
import { Testimonials } from './testimonials';
import { TopTrainers } from './top-trainers';
import { TrainerCallToAction } from './trainer-call-to-action';

/** Everything of the landing page after the hero, in the order of docs/product.md#home. */
export function BelowTheFold() {
  return (
    <>
      <Intro />
      <Gallery />
      <Programmes />
      <GymSchedule />
      <TopTrainers />
      <HowItWorks />
      <Testimonials />
      <LatestPosts />
      <TrainerCallToAction />
    </>
  );
}

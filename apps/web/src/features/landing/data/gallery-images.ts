// hashed file names (cached for a year), never inlined into the script
import overheadPressPicture from '../images/gallery-overhead-press.svg?no-inline';
import morningRunPicture from '../images/gallery-morning-run.svg?no-inline';
import forwardFoldPicture from '../images/gallery-forward-fold.svg?no-inline';
import backSquatPicture from '../images/gallery-back-squat.svg?no-inline';
import deadliftPicture from '../images/gallery-deadlift.svg?no-inline';
import pushUpsPicture from '../images/gallery-push-ups.svg?no-inline';
import kettlebellSwingPicture from '../images/gallery-kettlebell-swing.svg?no-inline';
import pullUpsPicture from '../images/gallery-pull-ups.svg?no-inline';
import jumpRopePicture from '../images/gallery-jump-rope.svg?no-inline';
import warriorPosePicture from '../images/gallery-warrior-pose.svg?no-inline';

export type GalleryImage = { src: string; caption: string; alt: string };

/** Ten colour-and-shape compositions drawn as SVG (docs/product.md#design: imagery without stock photos). */
export const galleryImages: GalleryImage[] = [
  {
    src: overheadPressPicture,
    caption: 'Overhead press',
    alt: 'A lime figure on a navy background pressing a loaded barbell above its head.',
  },
  {
    src: morningRunPicture,
    caption: 'Morning run',
    alt: 'A navy figure running mid-stride across a lime background, with speed lines behind it.',
  },
  {
    src: forwardFoldPicture,
    caption: 'Forward-fold stretch',
    alt: 'A figure sitting on a lime mat, reaching forward over straight legs towards its toes.',
  },
  {
    src: backSquatPicture,
    caption: 'Back squat',
    alt: 'A white figure squatting low with a lime barbell across its shoulders.',
  },
  {
    src: deadliftPicture,
    caption: 'Deadlift',
    alt: 'A navy figure standing tall at the top of a deadlift, holding a loaded barbell at its thighs.',
  },
  {
    src: pushUpsPicture,
    caption: 'Push-ups',
    alt: 'A lime figure in a straight plank, lowering into a push-up on a navy background.',
  },
  {
    src: kettlebellSwingPicture,
    caption: 'Kettlebell swing',
    alt: 'A figure swinging a kettlebell forward to chest height with straight arms.',
  },
  {
    src: pullUpsPicture,
    caption: 'Pull-ups',
    alt: 'A navy figure with its chin over a pull-up bar on a lime background.',
  },
  {
    src: jumpRopePicture,
    caption: 'Jump rope',
    alt: 'A white figure in mid-air as a lime skipping rope passes under its feet.',
  },
  {
    src: warriorPosePicture,
    caption: 'Warrior pose',
    alt: 'A figure in a wide yoga warrior stance, front knee bent and arms stretched out to both sides.',
  },
];

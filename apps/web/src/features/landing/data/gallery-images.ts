export type GalleryImage = { src: string; caption: string; alt: string };

/** Ten colour-and-shape compositions drawn as SVG (DESIGN.md: imagery without stock photos). */
export const galleryImages: GalleryImage[] = [
  {
    src: '/landing/gallery-overhead-press.svg',
    caption: 'Overhead press',
    alt: 'A lime figure on a navy background pressing a loaded barbell above its head.',
  },
  {
    src: '/landing/gallery-morning-run.svg',
    caption: 'Morning run',
    alt: 'A navy figure running mid-stride across a lime background, with speed lines behind it.',
  },
  {
    src: '/landing/gallery-forward-fold.svg',
    caption: 'Forward-fold stretch',
    alt: 'A figure sitting on a lime mat, reaching forward over straight legs towards its toes.',
  },
  {
    src: '/landing/gallery-back-squat.svg',
    caption: 'Back squat',
    alt: 'A white figure squatting low with a lime barbell across its shoulders.',
  },
  {
    src: '/landing/gallery-deadlift.svg',
    caption: 'Deadlift',
    alt: 'A navy figure standing tall at the top of a deadlift, holding a loaded barbell at its thighs.',
  },
  {
    src: '/landing/gallery-push-ups.svg',
    caption: 'Push-ups',
    alt: 'A lime figure in a straight plank, lowering into a push-up on a navy background.',
  },
  {
    src: '/landing/gallery-kettlebell-swing.svg',
    caption: 'Kettlebell swing',
    alt: 'A figure swinging a kettlebell forward to chest height with straight arms.',
  },
  {
    src: '/landing/gallery-pull-ups.svg',
    caption: 'Pull-ups',
    alt: 'A navy figure with its chin over a pull-up bar on a lime background.',
  },
  {
    src: '/landing/gallery-jump-rope.svg',
    caption: 'Jump rope',
    alt: 'A white figure in mid-air as a lime skipping rope passes under its feet.',
  },
  {
    src: '/landing/gallery-warrior-pose.svg',
    caption: 'Warrior pose',
    alt: 'A figure in a wide yoga warrior stance, front knee bent and arms stretched out to both sides.',
  },
];

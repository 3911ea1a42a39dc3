import { z } from 'zod';
import { ZPublicTrainer } from './accounts';

export const TRAINER_SORTS = ['rating', 'price_asc', 'price_desc', 'newest'] as const;
export const EGYPT_CITIES = [
  'Cairo',
  'Giza',
  'Alexandria',
  'Mansoura',
  'Tanta',
  'Zagazig',
  'Port Said',
  'Suez',
  'Ismailia',
  'Luxor',
  'Aswan',
  'Hurghada',
  'Sharm El Sheikh',
  'Asyut',
  'Faiyum',
] as const;

const intParam = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/** GET /api/trainers query (DECISIONS 13); every parameter optional, bad ones are a 400. */
export const ZTrainersQuery = z
  .object({
    page: intParam('page', 1, 100_000).default(1),
    limit: intParam('limit', 1, 100).default(24),
    q: z.string().trim().max(100, 'q must be at most 100 characters').optional(),
    minPrice: intParam('minPrice', 0, 100_000).optional(),
    maxPrice: intParam('maxPrice', 0, 100_000).optional(),
    minRating: z.coerce
      .number({ error: 'minRating must be a number' })
      .min(0, 'minRating must be between 0 and 5')
      .max(5, 'minRating must be between 0 and 5')
      .optional(),
    gender: z.enum(['male', 'female'], { error: 'gender must be male or female' }).optional(),
    city: z.string().trim().max(60, 'city must be at most 60 characters').optional(),
    sort: z.enum(TRAINER_SORTS, { error: `sort must be one of ${TRAINER_SORTS.join(', ')}` }).default('rating'),
    ids: z
      .string()
      .max(4000)
      .optional()
      .describe('comma-separated trainer ids (the favourites filter)'),
  })
  .refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
    message: 'minPrice must not be more than maxPrice',
    path: ['minPrice'],
  });
export type TTrainersQuery = z.input<typeof ZTrainersQuery>;

export const ZTrainersResponse = z.object({
  viewAllTrainers: z.array(ZPublicTrainer),
  total: z.number(),
  /** true when `total` is the planner's estimate (large results); the exact count otherwise */
  totalIsEstimate: z.boolean(),
  page: z.number(),
  limit: z.number(),
});
export type TTrainersResponse = z.infer<typeof ZTrainersResponse>;

/** The public profile adds how many distinct users booked and paid (0 until bookings exist). */
export const ZTrainerProfile = ZPublicTrainer.extend({ subscribers: z.number() });
export const ZTrainerProfileResponse = z.object({ trainerData: ZTrainerProfile });
export type TTrainerProfile = z.infer<typeof ZTrainerProfile>;

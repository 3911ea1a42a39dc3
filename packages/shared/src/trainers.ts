import { z } from 'zod';
import { ZTrainerPackage } from './packages';
import { ZPublicTrainer } from './accounts';
import { isId } from './ids';
import { EGYPT_CITIES, GENDERS } from './choices';
import { ZIsoDate } from './bookings';
import { MIN_RATING_OPTIONS, TRAINER_AVAILABLE, TRAINER_LIST_LIMITS, TRAINER_SORTS } from './trainer-list';

const L = TRAINER_LIST_LIMITS;

const intParam = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/** Each parameter once, so the server's strict query and the web's lenient address agree. */
const trainerListParams = {
  page: intParam('page', 1, L.pageMax),
  limit: intParam('limit', 1, L.limitMax),
  price: (name: string) => intParam(name, 0, L.priceMax),
  minRating: z.coerce
    .number({ error: 'minRating must be a number' })
    .min(0, 'minRating must be between 0 and 5')
    .max(5, 'minRating must be between 0 and 5'),
  gender: z.enum(GENDERS, { error: 'gender must be male or female' }),
  sort: z.enum(TRAINER_SORTS, { error: `sort must be one of ${TRAINER_SORTS.join(', ')}` }),
  available: z.enum(TRAINER_AVAILABLE, { error: `available must be one of ${TRAINER_AVAILABLE.join(', ')}` }),
  availableOn: ZIsoDate,
};

/** GET /api/trainers query (docs/product.md#trainer-list-search); every parameter optional, bad ones are a 400. */
export const ZTrainersQuery = z
  .object({
    page: trainerListParams.page.default(1),
    limit: trainerListParams.limit.default(L.pageSize),
    /** An empty search is no search. */
    q: z
      .string()
      .trim()
      .max(L.qMax, `q must be at most ${L.qMax} characters`)
      .optional()
      .transform((q) => q || undefined),
    minPrice: trainerListParams.price('minPrice').optional(),
    maxPrice: trainerListParams.price('maxPrice').optional(),
    minRating: trainerListParams.minRating.optional(),
    gender: trainerListParams.gender.optional(),
    city: z
      .string()
      .trim()
      .max(L.cityMax, `city must be at most ${L.cityMax} characters`)
      .optional()
      .transform((city) => city || undefined),
    sort: trainerListParams.sort.default('rating'),
    /** Only trainers with a free slot then (docs/product.md#trainer-list-search); with `availableOn`, both apply. */
    available: trainerListParams.available.optional(),
    /** Only trainers with a free slot on that date, in their own zone. */
    availableOn: trainerListParams.availableOn.optional(),
    /** `true`: verified coaches only (docs/product.md#verified-coaches); anything else is no filter. */
    verified: z
      .enum(['true', 'false'], { error: 'verified must be true or false' })
      .optional()
      .transform((v) => (v === 'true' ? true : undefined)),
    /** Parsed to the ids that can be ids at all (others name no trainer), at most 500. */
    ids: z
      .string()
      .max(L.idsMax)
      .optional()
      .describe('comma-separated trainer ids (the favourites filter)')
      .transform((csv) =>
        csv
          ?.split(',')
          .map((s) => s.trim())
          .filter(isId)
          .slice(0, 500),
      ),
  })
  .refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
    message: 'minPrice must not be more than maxPrice',
    path: ['minPrice'],
  });
export type TTrainersQuery = z.input<typeof ZTrainersQuery>;
/** The query as the server reads it: defaults applied, empty text dropped, ids split. */
export type TTrainersQueryParsed = z.output<typeof ZTrainersQuery>;

/** An empty address value (`?minPrice=`) counts as missing, not as 0. */
const param = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);
const optionalParam = <T extends z.ZodType>(schema: T) => param(schema.optional()).catch(undefined);

/**
 * The trainer list's address (`/trainers?…`, docs/product.md#trainer-list-search), read from its search params. Lenient:
 * a missing or bad value falls back to its default instead of failing, so a hand-edited link
 * still opens the list. Only the choices the list offers are kept (its cities and ratings).
 */
export const ZTrainerListSearch = z.object({
  /** As typed (untrimmed, cut to the limit), so the search box keeps its spaces. */
  q: z
    .string()
    .catch('')
    .default('')
    .transform((q) => q.slice(0, L.qMax)),
  minPrice: optionalParam(trainerListParams.price('minPrice')),
  maxPrice: optionalParam(trainerListParams.price('maxPrice')),
  minRating: optionalParam(z.coerce.number().pipe(z.union(MIN_RATING_OPTIONS.map((n) => z.literal(n))))),
  gender: optionalParam(trainerListParams.gender),
  city: optionalParam(z.enum(EGYPT_CITIES)),
  sort: param(trainerListParams.sort.default('rating')).catch('rating'),
  available: optionalParam(trainerListParams.available),
  availableOn: optionalParam(trainerListParams.availableOn),
  page: param(trainerListParams.page.default(1)).catch(1),
  favorites: z
    .string()
    .optional()
    .transform((value) => value === '1')
    .catch(false),
  /** `verified=1`: verified coaches only. */
  verified: z
    .string()
    .optional()
    .transform((value) => value === '1')
    .catch(false),
});
export type TTrainerListSearch = z.output<typeof ZTrainerListSearch>;

/**
 * A trainer in the list and on the profile: the public fields and the start of their next free slot
 * (ISO in UTC; null when none in the bookable 14 days), the same slots the booking dialog offers.
 */
export const ZTrainerCard = ZPublicTrainer.extend({
  nextFreeAt: z.string().nullable(),
  /** A 'Verified coach': an operator approved a certificate of theirs that has not expired (docs/product.md#verified-coaches). */
  verified: z.boolean().default(false),
});
export type TTrainerCard = z.infer<typeof ZTrainerCard>;

export const ZTrainersResponse = z.object({
  viewAllTrainers: z.array(ZTrainerCard),
  total: z.number(),
  /** true when `total` is the planner's estimate (large results); the exact count otherwise */
  totalIsEstimate: z.boolean(),
  page: z.number(),
  limit: z.number(),
});
export type TTrainersResponse = z.infer<typeof ZTrainersResponse>;

/** The public profile adds how many distinct users booked and paid (0 until bookings exist). */
export const ZTrainerProfile = ZTrainerCard.extend({
  subscribers: z.number(),
  /** The packages the trainer sells (docs/product.md#packages), cheapest per session first. */
  packages: z.array(ZTrainerPackage),
});
export const ZTrainerProfileResponse = z.object({ trainerData: ZTrainerProfile });
export type TTrainerProfile = z.infer<typeof ZTrainerProfile>;

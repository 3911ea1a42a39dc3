/**
 * The trainer list's choices and limits (its cities are in choices.ts), apart from its schemas
 * (trainers.ts) so that a screen can use them without loading zod (the list reads its address with
 * them: docs/decisions/029-trainer-list-address-without-zod.md).
 */
/** `soonest`: by the next free slot (`nextFreeAt`), trainers with none last. */
export const TRAINER_SORTS = ['rating', 'price_asc', 'price_desc', 'newest', 'soonest'] as const;
/**
 * The list's availability filter (in each trainer's own zone, within the bookable 14 days): a free slot
 * today, this week (the next 7 days), in a morning (starting 06:00-11:59) or an evening (17:00-21:59).
 */
export const TRAINER_AVAILABLE = ['today', 'week', 'mornings', 'evenings'] as const;
export const AVAILABLE_HOURS = { mornings: [6, 12], evenings: [17, 22] } as const;
/** Limits of the trainer list query: the server enforces them, the web's address falls back inside them. */
export const TRAINER_LIST_LIMITS = {
  pageMax: 100_000,
  limitMax: 100,
  pageSize: 24,
  qMax: 100,
  priceMax: 100_000,
  cityMax: 60,
  idsMax: 4000,
} as const;

/** The minimum ratings the list offers as filters. */
export const MIN_RATING_OPTIONS = [4.5, 4, 3.5, 3] as const;

/**
 * The trainer list's choices and limits (its cities are in choices.ts), apart from its schemas
 * (trainers.ts) so that a screen can use them without loading zod (the list reads its address with
 * them: docs/decisions/029-trainer-list-address-without-zod.md).
 */
export const TRAINER_SORTS = ['rating', 'price_asc', 'price_desc', 'newest'] as const;
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

import { z } from 'zod';
import { numericStringToNumber } from './fields';

export const REVIEW_COMMENT_MAX = 1000;
const RATING_MSG = 'Please choose a rating from 1 to 5 stars';

export const ZReview = z.object({
  _id: z.string(),
  trainerId: z.string(),
  rating: z.number(),
  comment: z.string(),
  reviewerFirstName: z.string(),
  reviewerLastName: z.string(),
  reviewerProfilePhoto: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isMine: z.boolean().optional(),
  /** The reviewer had a paid session with the trainer that is over (docs/product.md#reviews). */
  verifiedSession: z.boolean().optional(),
  /** Hidden by moderation: only its author gets it, marked (docs/product.md#reports-and-moderation). */
  hidden: z.boolean().optional(),
});
export type TReview = z.infer<typeof ZReview>;
export const ZReviewsResponse = z.object({ allReviews: z.array(ZReview) });

/**
 * A whole number of stars, 1 to 5; "4" is taken as 4, since clients written against the spec send
 * form values as strings. Typed as number in and out so the browser's form keeps a numeric field.
 */
const RatingSchema = z
  .union([z.number(), z.string().transform(numericStringToNumber)], { error: RATING_MSG })
  .pipe(z.number({ error: RATING_MSG }).int(RATING_MSG).min(1, RATING_MSG).max(5, RATING_MSG)) as unknown as z.ZodType<
  number,
  number
>;

/**
 * POST /api/reviews/new. The reviewer comes from the token; the spec's reviewer fields and
 * userToken are accepted and ignored (docs/product.md#identity-from-the-token).
 */
export const ZCreateReviewRequest = z.object({
  trainerId: z.string({ error: 'Choose a trainer to review' }).min(1, 'Choose a trainer to review'),
  rating: RatingSchema,
  comment: z
    .string({ error: 'Please write a comment' })
    .trim()
    .min(1, 'Please write a comment')
    .max(REVIEW_COMMENT_MAX, `Max number of characters is ${REVIEW_COMMENT_MAX}`),
  userToken: z.string().optional(),
  reviewerFirstName: z.string().optional(),
  reviewerLastName: z.string().optional(),
  reviewerProfilePhoto: z.string().optional(),
});
export type TCreateReviewRequest = z.input<typeof ZCreateReviewRequest>;
export const ZCreateReviewResponse = z.object({ message: z.string(), review: ZReview });

export const REVIEW_MSG = {
  created: 'Thank you for sharing your experience!',
} as const;

import { z } from 'zod';
import { GENDERS } from './choices';

/** What the owner of an account sees (GET /api/userData, GET /api/trainerData). */
export const ZOwnAccount = z.object({
  _id: z.string(),
  role: z.enum(['user', 'trainer']),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  title: z.string(),
  description: z.string(),
  phone: z.string(),
  gender: z.enum(GENDERS),
  age: z.number(),
  height: z.number(),
  weight: z.number(),
  picture: z.string(),
  city: z.string(),
  country: z.string(),
  website: z.string(),
  notifications: z.object({ account: z.boolean(), marketing: z.boolean() }),
  createdAt: z.string(),
});
export type TOwnAccount = z.infer<typeof ZOwnAccount>;

export const ZOwnTrainer = ZOwnAccount.extend({
  price: z.number(),
  rating: z.number(),
  ratingCount: z.number(),
  /**
   * An operator hid the public profile, or three reports did (docs/product.md#reports-and-moderation):
   * only its trainer and operators see it; the list and its page answer nobody else.
   */
  profileHidden: z.boolean(),
});
export type TOwnTrainer = z.infer<typeof ZOwnTrainer>;

/** A trainer as anyone may see it: no e-mail, phone, age, height or weight (docs/product.md#public-and-private-data). */
export const ZPublicTrainer = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  title: z.string(),
  description: z.string(),
  picture: z.string(),
  city: z.string(),
  country: z.string(),
  gender: z.enum(GENDERS),
  price: z.number(),
  rating: z.number(),
  ratingCount: z.number(),
});
export type TPublicTrainer = z.infer<typeof ZPublicTrainer>;

export const ZUserDataResponse = z.object({ userData: ZOwnAccount });
export const ZOwnTrainerDataResponse = z.object({ trainerData: ZOwnTrainer });
export const ZPublicTrainerDataResponse = z.object({ trainerData: ZPublicTrainer });

import { z } from 'zod';
import { MSG } from './messages';
import { DEFAULT_COUNTRY } from './choices';
import {
  AgeSchema,
  CitySchema,
  CountrySchema,
  EmailSchema,
  GenderSchema,
  HeightSchema,
  NameSchema,
  PasswordSchema,
  PhoneSchema,
  PriceSchema,
  WeightSchema,
} from './fields';

export const ROLES = ['user', 'trainer'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

const signUpFields = {
  firstName: NameSchema,
  lastName: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  confirmPassword: z.string({ error: MSG.confirmRequired }).min(1, MSG.confirmRequired),
  phone: PhoneSchema,
  age: AgeSchema,
  gender: GenderSchema,
  height: HeightSchema,
  weight: WeightSchema,
  /** Accepted for compatibility with the spec's payload; photos are set by upload instead. */
  picture: z.string().max(2000).optional(),
};

const passwordsMatch = <T extends { password: string; confirmPassword: string }>(data: T, ctx: z.RefinementCtx) => {
  if (data.password !== data.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MSG.passwordsMatch });
  }
};

/** A blank form field ('' or spaces) counts as not sent. */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** The spec's user payload has no city or country; a user may give them (stored, or left blank). */
export const ZUserSignUpRequest = z
  .object({
    ...signUpFields,
    city: z.preprocess(blankAsAbsent, CitySchema.optional()),
    country: z.preprocess(blankAsAbsent, CountrySchema.optional()),
  })
  .superRefine(passwordsMatch);
export type TUserSignUpRequest = z.input<typeof ZUserSignUpRequest>;

const trainerSignUpFields = {
  ...signUpFields,
  price: PriceSchema,
  country: z.preprocess(blankAsAbsent, CountrySchema.default(DEFAULT_COUNTRY)),
};

/**
 * The API keeps the spec's trainer payload working (no city); a city sent is checked and stored.
 * The sign-up screen asks for it (ZTrainerSignUpForm), so the list's city filter finds new trainers.
 */
export const ZTrainerSignUpRequest = z
  .object({ ...trainerSignUpFields, city: z.preprocess(blankAsAbsent, CitySchema.optional()) })
  .superRefine(passwordsMatch);
export const ZTrainerSignUpForm = z.object({ ...trainerSignUpFields, city: CitySchema }).superRefine(passwordsMatch);
export type TTrainerSignUpRequest = z.input<typeof ZTrainerSignUpRequest>;

export const ZLoginRequest = z.object({
  email: z
    .string({ error: MSG.loginEmailRequired })
    .trim()
    .min(1, MSG.loginEmailRequired)
    .max(254, MSG.loginEmailInvalid)
    .pipe(z.email(MSG.loginEmailInvalid))
    .transform((e) => e.toLowerCase()),
  password: z
    .string({ error: MSG.loginPasswordRequired })
    .min(1, MSG.loginPasswordRequired)
    .max(200, MSG.loginPasswordMin)
    .regex(/^[A-Z]/, MSG.loginPasswordUppercase)
    .min(4, MSG.loginPasswordMin),
});
export type TLoginRequest = z.input<typeof ZLoginRequest>;

export const ZMessageResponse = z.object({ message: z.string() });
export const ZLoginResponse = z.object({ message: z.string(), token: z.string() });

export const ZForgotPasswordRequest = z.object({ email: EmailSchema, role: RoleSchema });
export const ZResetPasswordRequest = z
  .object({
    token: z.string().min(10, 'This reset link is invalid').max(200),
    password: PasswordSchema,
    confirmPassword: z.string({ error: MSG.confirmRequired }).min(1, MSG.confirmRequired),
  })
  .superRefine(passwordsMatch);
export type TResetPasswordRequest = z.input<typeof ZResetPasswordRequest>;

export const ZVerifyQuery = z.object({ token: z.string().max(200).optional() });

/** "1 minute", "12 minutes": how long until a limit ends, rounded up to whole minutes. */
export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** 429 after too many failed log-ins for one e-mail (docs/decisions/009-login-lockout.md). */
export const loginLockedMessage = (retryAfterSeconds: number) =>
  `Too many failed log-ins. Try again in ${minutesText(retryAfterSeconds)}.`;

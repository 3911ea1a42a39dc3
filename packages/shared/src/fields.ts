import { z } from 'zod';
import { GENDERS } from './choices';
import { MSG } from './messages';

/** Limits of docs/product.md#limits, in one place. */
export const LIMITS = {
  nameMin: 2,
  nameMax: 50,
  titleMax: 25,
  descriptionMax: 200,
  ageMin: 18,
  ageMax: 100,
  heightMin: 50,
  heightMax: 250,
  weightMin: 5,
  weightMax: 650,
  priceMin: 100,
  priceMax: 100_000,
  emailMax: 254,
  cityMin: 2,
  cityMax: 50,
  countryMin: 2,
  countryMax: 56,
} as const;

/** "Required" when missing, the given message for any other type. */
const typeError = (message: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === '' ? MSG.required : message;

/** A numeric string (as forms and some clients send numbers) becomes its number; anything else is left as it is. */
export const numericStringToNumber = (v: unknown): unknown =>
  typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;

/** Accepts numbers, and numeric strings from forms; anything else fails with `message`. */
const numeric = (message: string) => z.preprocess(numericStringToNumber, z.number({ error: typeError(message) }));

export const NameSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .min(LIMITS.nameMin, MSG.nameMin)
  .max(LIMITS.nameMax, MSG.max(LIMITS.nameMax));

export const EmailSchema = z
  .string({ error: MSG.emailRequired })
  .trim()
  .min(1, MSG.emailRequired)
  .max(LIMITS.emailMax, MSG.emailInvalid)
  .pipe(z.email(MSG.emailInvalid))
  .transform((e) => e.toLowerCase());

export const PASSWORD_PATTERN = /^[A-Z][a-z0-9]{3,8}$/;
export const PasswordSchema = z
  .string({ error: MSG.passwordRequired })
  .min(1, MSG.passwordRequired)
  .regex(PASSWORD_PATTERN, MSG.passwordShape);

export const PHONE_PATTERN = /^01[0125][0-9]{8}$/;
export const PhoneSchema = z.string({ error: MSG.required }).trim().min(1, MSG.required).regex(PHONE_PATTERN, MSG.phoneInvalid);

export const AgeSchema = numeric(MSG.ageNumber).pipe(
  z.number().int(MSG.ageInteger).min(LIMITS.ageMin, MSG.ageMin).max(LIMITS.ageMax, MSG.ageMax),
);

export const GenderSchema = z.enum(GENDERS, { error: typeError(MSG.genderInvalid) });

export const HeightSchema = numeric(MSG.number).pipe(
  z
    .number()
    .positive(MSG.positive)
    .int(MSG.wholeNumber)
    .min(LIMITS.heightMin, MSG.heightMin)
    .max(LIMITS.heightMax, MSG.heightMax),
);

export const WeightSchema = numeric(MSG.number).pipe(
  z
    .number()
    .positive(MSG.positive)
    .int(MSG.wholeNumber)
    .min(LIMITS.weightMin, MSG.weightMin)
    .max(LIMITS.weightMax, MSG.weightMax),
);

/** Whole dollars. */
export const PriceSchema = numeric(MSG.number).pipe(
  z
    .number()
    .positive(MSG.positive)
    .int(MSG.wholeNumber)
    .min(LIMITS.priceMin, MSG.priceMin)
    .max(LIMITS.priceMax, `Maximum is ${LIMITS.priceMax}`),
);

export const TitleSchema = z.string().trim().max(LIMITS.titleMax, MSG.max(LIMITS.titleMax));
export const DescriptionSchema = z.string().trim().max(LIMITS.descriptionMax, MSG.max(LIMITS.descriptionMax));

export const WebsiteSchema = z
  .string()
  .trim()
  .max(200, MSG.websiteInvalid)
  .refine((v) => v === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v), MSG.websiteInvalid);

/** Free text: the list's cities (CITY_SUGGESTIONS) are offered, any other city may be typed. */
export const CitySchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .min(LIMITS.cityMin, MSG.min(LIMITS.cityMin))
  .max(LIMITS.cityMax, MSG.max(LIMITS.cityMax));

export const CountrySchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .min(LIMITS.countryMin, MSG.min(LIMITS.countryMin))
  .max(LIMITS.countryMax, MSG.max(LIMITS.countryMax));

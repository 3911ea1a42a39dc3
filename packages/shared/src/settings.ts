import { z } from 'zod';
import { MSG } from './messages';
import { minutesText } from './auth';
import {
  CitySchema,
  CountrySchema,
  DescriptionSchema,
  EmailSchema,
  HeightSchema,
  NameSchema,
  PasswordSchema,
  PhoneSchema,
  PriceSchema,
  TitleSchema,
  WebsiteSchema,
  WeightSchema,
} from './fields';

/** A blank string (or only spaces) from a form means "not filled in": the field is left as it is. */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const unchangedIfBlank = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsAbsent, schema.optional());

export const CurrentPasswordSchema = z.string().max(200);

/**
 * PATCH /api/{user|trainer}/edit: personal details (docs/product.md#settings-rules). A PATCH changes
 * only what it carries, and every field is optional. The spec's form starts blank and sends all
 * five fields, so an empty string means "not filled in", never "make it blank": for the names and
 * the e-mail (which cannot be blank) and for title and description alike (a client that sends
 * `{ title: 'New', description: '' }` changes the title only). To clear the title or the
 * description, send `null`. A new e-mail needs `currentPassword`.
 */
export const ZEditProfileRequest = z.object({
  firstName: unchangedIfBlank(NameSchema),
  lastName: unchangedIfBlank(NameSchema),
  email: unchangedIfBlank(EmailSchema),
  title: unchangedIfBlank(TitleSchema.nullable()),
  description: unchangedIfBlank(DescriptionSchema.nullable()),
  /** free text (the list's cities are suggestions); blank leaves it as it is */
  city: unchangedIfBlank(CitySchema),
  country: unchangedIfBlank(CountrySchema),
  /** required (and checked) only when the e-mail changes */
  currentPassword: unchangedIfBlank(CurrentPasswordSchema),
  /** accepted for compatibility with the spec's payload; photos change through /edit/photo */
  picture: z.string().optional(),
});
export type TEditProfileRequest = z.input<typeof ZEditProfileRequest>;
/** The price is whole dollars, as a number or a numeric string ("150"), like sign-up. */
export const ZEditTrainerProfileRequest = ZEditProfileRequest.extend({ price: unchangedIfBlank(PriceSchema) });
export type TEditTrainerProfileRequest = z.input<typeof ZEditTrainerProfileRequest>;

/**
 * The settings form of personal details: every field is shown filled in, so the names and the
 * e-mail are required there; the form turns an emptied title or description into `null`.
 */
export const ZPersonalDetailsForm = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  email: EmailSchema,
  title: TitleSchema,
  description: DescriptionSchema,
  /** optional even here: an account made before cities (or by Google) has none; blank saves no change */
  city: unchangedIfBlank(CitySchema),
  country: unchangedIfBlank(CountrySchema),
  currentPassword: CurrentPasswordSchema.optional(),
});
export const ZTrainerPersonalDetailsForm = ZPersonalDetailsForm.extend({ price: PriceSchema });

export const ZEditPhotoRequest = z.object({
  picture: z
    .string({ error: 'Choose a photo first' })
    .min(1, 'Choose a photo first')
    .max(300, 'This is not a photo stored by Spotter'),
});

export const ZContactRequest = z.object({
  phone: PhoneSchema,
  website: WebsiteSchema.default(''),
  weight: WeightSchema,
  height: HeightSchema,
});
export type TContactRequest = z.input<typeof ZContactRequest>;

export const ZChangePasswordRequest = z
  .object({
    oldPassword: z.string({ error: 'Please enter your current password' }).min(1, 'Please enter your current password').max(200),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: MSG.confirmRequired }).min(1, MSG.confirmRequired),
  })
  .superRefine((d, ctx) => {
    if (d.newPassword !== d.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MSG.passwordsMatch });
  });
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;

export const ZNotificationsRequest = z.object({
  account: z.boolean({ error: 'Choose on or off' }),
  marketing: z.boolean({ error: 'Choose on or off' }),
});
export type TNotifications = z.infer<typeof ZNotificationsRequest>;

export const ZDeleteAccountRequest = z.object({
  password: z.string({ error: 'Please enter your password' }).min(1, 'Please enter your password').max(200),
});

export const ZImageResponse = z.object({ url: z.string() });
export const ZWeightsResponse = z.object({ weights: z.array(z.object({ weight: z.number(), recordedAt: z.string() })) });

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_EDGE = 512;

export const SETTINGS_MSG = {
  profileSaved: 'Your details are saved',
  profileSavedVerify: 'Your details are saved. We sent a verification link to your new e-mail',
  photoSaved: 'Your photo is updated',
  contactSaved: 'Your contact info is saved',
  passwordChanged: 'Your password is changed',
  wrongPassword: 'Your current password is not correct',
  currentPasswordForEmail: 'Enter your current password to change your e-mail',
  notificationsSaved: 'Your notification choices are saved',
  accountDeleted: 'Your account is deleted',
  notOurImage: 'This is not a photo stored by Spotter; upload it first',
  imageType: 'Upload a PNG, JPEG or WebP image',
  imageTooLarge: 'The image is larger than 5 MB',
  imageTooManyPixels: 'The image is too large to process; use one under 40 megapixels',
  imageMissing: 'Choose an image file to upload (form field "file")',
} as const;

/** 429 after too many wrong passwords on the settings screens (change password, e-mail, delete). */
export const passwordLockedMessage = (retryAfterSeconds: number) =>
  `Too many wrong passwords. Try again in ${minutesText(retryAfterSeconds)}.`;

/** 429 after too many contact saves in an hour (each one adds a point to the weight chart). */
export const contactLimitMessage = (retryAfterSeconds: number) =>
  `You saved your contact info too many times this hour. Try again in ${minutesText(retryAfterSeconds)}.`;

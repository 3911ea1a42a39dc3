import { z } from 'zod';
import { MSG } from './messages';
import {
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

/** PATCH /api/{user|trainer}/edit: personal details (spec section 5, settings). */
export const ZEditProfileRequest = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  email: EmailSchema,
  title: TitleSchema.default(''),
  description: DescriptionSchema.default(''),
  /** accepted for compatibility with the spec's payload; photos change through /edit/photo */
  picture: z.string().optional(),
});
export type TEditProfileRequest = z.input<typeof ZEditProfileRequest>;
export const ZEditTrainerProfileRequest = ZEditProfileRequest.extend({ price: PriceSchema.optional() });
export type TEditTrainerProfileRequest = z.input<typeof ZEditTrainerProfileRequest>;

export const ZEditPhotoRequest = z.object({
  picture: z.string({ error: 'Choose a photo first' }).min(1, 'Choose a photo first').max(300, 'This is not a photo stored by Spotter'),
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
    if (d.newPassword !== d.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MSG.passwordsMatch });
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
  notificationsSaved: 'Your notification choices are saved',
  accountDeleted: 'Your account is deleted',
  notOurImage: 'This is not a photo stored by Spotter; upload it first',
  imageType: 'Upload a PNG, JPEG or WebP image',
  imageTooLarge: 'The image is larger than 5 MB',
  imageTooManyPixels: 'The image is too large to process; use one under 40 megapixels',
  imageMissing: 'Choose an image file to upload (form field "file")',
} as const;

import { z } from 'zod';
import { RoleSchema } from './auth';

/** Google sign-in (docs/product.md#google-sign-in): what the login screens and `POST /api/auth/google` say. */
export const GOOGLE_MSG = {
  notConfigured: 'Google sign-in is not configured on this server',
  credentialRequired: 'The Google credential is missing',
  invalidCredential: 'Google sign-in failed: the credential is invalid or has expired',
  emailNotVerified: 'Google has not verified the e-mail address of this Google account',
  emailInvalid: 'The e-mail address of this Google account is not one Spotter can use',
  keysUnavailable: 'Google sign-in is unavailable right now. Please try again.',
  signedUp: 'Signed up with Google',
} as const;

/** `GET /api/auth/config`: which sign-in providers this server accepts; null when not configured. */
export const ZAuthConfigResponse = z.object({ googleClientId: z.string().nullable() });
export type TAuthConfigResponse = z.infer<typeof ZAuthConfigResponse>;

/** `POST /api/auth/google`: the ID token Google handed the browser, verified by the server alone. */
export const ZGoogleSignInRequest = z.object({
  // Google's ID tokens are about 1.2 kB; 8 kB leaves room and refuses anything silly
  credential: z
    .string({ error: GOOGLE_MSG.credentialRequired })
    .min(1, GOOGLE_MSG.credentialRequired)
    .max(8192, GOOGLE_MSG.invalidCredential),
  role: RoleSchema,
});
export type TGoogleSignInRequest = z.input<typeof ZGoogleSignInRequest>;

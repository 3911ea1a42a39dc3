import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ZTrainerSignUpForm, ZUserSignUpRequest } from '@spotter/shared';
import type { Role } from '@/lib/paths';
import type { SignUpPayload } from '../api/register';
import { withPasswordMatch } from '../utils/with-password-match';

/** Form values as typed (strings for the numbers); the schemas turn them into numbers. */
export type SignUpValues = z.input<typeof ZUserSignUpRequest> & { price?: unknown; city?: unknown; country?: unknown };

/** The sign-up form's validation, in a chunk of its own (see lib/lazy-resolver.ts). */
export function signUpResolver(role: Role): Resolver<SignUpValues, unknown, SignUpPayload> {
  // The user schema drops the trainer-only `price`, so one value type serves both roles.
  const schema = (role === 'trainer' ? ZTrainerSignUpForm : ZUserSignUpRequest) as z.ZodType<SignUpPayload, SignUpValues>;
  return withPasswordMatch(zodResolver(schema));
}

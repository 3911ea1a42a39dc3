import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ZTrainerSignUpForm, ZUserSignUpRequest } from '@spotter/shared';
import type { Role } from '@/lib/paths';
import type { SignUpPayload } from '../api/register';
import { withPasswordMatch } from '../utils/with-password-match';
import type { SignUpValues } from './sign-up-form';

/** The sign-up form's validation, in a chunk of its own (see lib/lazy-resolver.ts). */
export function signUpResolver(role: Role): Resolver<SignUpValues, unknown, SignUpPayload> {
  // The user schema drops the trainer-only `price`, so one value type serves both roles.
  const schema = (role === 'trainer' ? ZTrainerSignUpForm : ZUserSignUpRequest) as z.ZodType<SignUpPayload, SignUpValues>;
  return withPasswordMatch(zodResolver(schema));
}

import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { MSG } from '@spotter/shared';

type PasswordPair = FieldValues & { password: string; confirmPassword: string };

/**
 * The shared schemas check "Passwords must match" only once every other field is valid (a zod
 * refinement runs after the object parses). People fill forms top to bottom, so the match is
 * checked as soon as both are typed, with the schema's own message.
 */
export function withPasswordMatch<V extends PasswordPair, O>(resolver: Resolver<V, unknown, O>): Resolver<V, unknown, O> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const isMismatch = values.confirmPassword !== '' && values.password !== values.confirmPassword;
    if (isMismatch && !result.errors.confirmPassword) {
      return {
        values: {},
        errors: { ...result.errors, confirmPassword: { type: 'custom', message: MSG.passwordsMatch } } as FieldErrors<V>,
      };
    }
    return result;
  };
}

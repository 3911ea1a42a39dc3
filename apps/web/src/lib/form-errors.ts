import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Puts the server's field messages (the `errors` map of a 4xx answer) under their form fields,
 * focusing the first unless told not to (a form whose banner takes the focus). Answers whether any
 * field got one, so a form can skip repeating it in its banner.
 */
export function showServerErrors<V extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<V>[],
  setError: UseFormSetError<V>,
  { isFocusing = true }: { isFocusing?: boolean } = {},
): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  let isShown = false;
  for (const [field, message] of Object.entries(error.errors)) {
    const name = fields.find((f) => f === field);
    if (name) {
      setError(name, { type: 'server', message }, { shouldFocus: isFocusing && !isShown });
      isShown = true;
    }
  }
  return isShown;
}

import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-client';

/**
 * Puts the server's field messages (`errors: { field: message }`) under their fields. Answers
 * whether any field got one, so the form can skip repeating it in its banner.
 */
export function showServerErrors<V extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<V>[],
  setError: UseFormSetError<V>,
): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  let isShown = false;
  for (const [field, message] of Object.entries(error.errors)) {
    const name = fields.find((f) => f === field);
    if (name) {
      setError(name, { type: 'server', message }, { shouldFocus: !isShown });
      isShown = true;
    }
  }
  return isShown;
}

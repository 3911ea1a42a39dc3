import { get, type FieldError, type FieldPath, type FieldValues, type FormState } from 'react-hook-form';

/**
 * The message to show under a field: only once the field was touched or the form submitted
 * (docs/product.md#states), so a field validated because another one changed (`deps`) stays quiet.
 * Server errors always show.
 */
export function visibleError<V extends FieldValues>(formState: FormState<V>, name: FieldPath<V>): string | undefined {
  const error = get(formState.errors, name) as FieldError | undefined;
  if (!error?.message) return undefined;
  const isShown = error.type === 'server' || formState.isSubmitted || Boolean(get(formState.touchedFields, name));
  return isShown ? error.message : undefined;
}

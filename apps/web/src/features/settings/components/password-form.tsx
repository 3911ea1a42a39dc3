import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, type FieldErrors, type FieldPath, type Resolver } from 'react-hook-form';
import { MSG, ZChangePasswordRequest, type TChangePasswordRequest } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import type { Role } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { useChangePassword, type ChangePasswordPayload } from '../api/change-password';
import { showServerErrors } from '@/lib/form-errors';
import { visibleError } from '@/lib/visible-error';
import { FormError, SavedNote } from './form-feedback';

type PasswordValues = Required<TChangePasswordRequest>;

const FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const satisfies FieldPath<PasswordValues>[];
const EMPTY: PasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The schema checks "Passwords must match" only once every other field is valid (a zod
 * refinement runs after the object parses); people notice a mismatch as soon as both are typed.
 */
const resolver: Resolver<PasswordValues, unknown, ChangePasswordPayload> = async (values, context, options) => {
  const result = await zodResolver(ZChangePasswordRequest)(values, context, options);
  const isMismatch = values.confirmPassword !== '' && values.newPassword !== values.confirmPassword;
  if (isMismatch && !result.errors.confirmPassword) {
    return {
      values: {},
      errors: {
        ...result.errors,
        confirmPassword: { type: 'custom', message: MSG.passwordsMatch },
      } as FieldErrors<PasswordValues>,
    };
  }
  return result as Awaited<ReturnType<Resolver<PasswordValues, unknown, ChangePasswordPayload>>>;
};

/** Change password: the old one is required; the fresh token is stored by the call. */
export function PasswordForm({ role, email }: { role: Role; email: string }) {
  const changePassword = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [isVisible, setIsVisible] = useState(false);
  const baseId = useId();
  const ids = { old: `${baseId}-old`, new: `${baseId}-new`, confirm: `${baseId}-confirm` };

  const { register, handleSubmit, setError, reset, formState } = useForm<PasswordValues, unknown, ChangePasswordPayload>({
    mode: 'onTouched',
    defaultValues: EMPTY,
    resolver,
  });
  const errorFor = (name: FieldPath<PasswordValues>) => visibleError(formState, name);

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    changePassword.mutate(
      { role, data },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setSaved(message);
          reset(EMPTY);
          setIsVisible(false);
        },
        onError: (error) => {
          // A wrong old password shows under its field; anything else above the button.
          if (!showServerErrors(error, FIELDS, setError)) setFailure(errorMessage(error));
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField
        id={ids.old}
        label="Old password"
        autoComplete="current-password"
        error={errorFor('oldPassword')}
        {...register('oldPassword')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <PasswordField
          id={ids.new}
          label="New password"
          autoComplete="new-password"
          hint="A capital letter, then 3 to 8 lowercase letters or digits."
          isVisible={isVisible}
          onVisibleChange={setIsVisible}
          alsoControls={[ids.confirm]}
          error={errorFor('newPassword')}
          {...register('newPassword', { deps: ['confirmPassword'] })}
        />
        <PasswordField
          id={ids.confirm}
          label="Re-type new password"
          autoComplete="new-password"
          isVisible={isVisible}
          hasToggle={false}
          error={errorFor('confirmPassword')}
          {...register('confirmPassword')}
        />
      </div>
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={changePassword.isPending}>
          Save password
        </Button>
        <SavedNote message={formState.isDirty ? null : saved} />
      </div>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { SERVER_MSG, ZResetPasswordRequest } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import { showServerErrors } from '@/lib/form-errors';
import { paths, roleFrom } from '@/lib/paths';
import { useResetPassword, type ResetPasswordPayload } from '../api/reset-password';
import { visibleError } from '@/lib/visible-error';
import { withPasswordMatch } from '../utils/with-password-match';
import { AuthLayout } from './auth-layout';
import { StatusBanner, type Status } from './status-banner';

type ResetValues = z.input<typeof ZResetPasswordRequest>;

const linkClass = 'font-semibold text-ink underline underline-offset-4 hover:text-accent-ink';
const FIELDS = ['password', 'confirmPassword'] as const;
const ids = { password: 'reset-password', confirm: 'reset-confirm-password' };

/** The page of the mailed reset link: `/reset-password?token=…&role=…`. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const role = roleFrom(params.get('role'), 'user');
  const reset = useResetPassword();
  const [status, setStatus] = useState<Status>(null);
  const [isVisible, setIsVisible] = useState(false);
  const resolver = useMemo(() => withPasswordMatch(zodResolver(ZResetPasswordRequest)), []);

  const { register, handleSubmit, setError, formState } = useForm<ResetValues, unknown, ResetPasswordPayload>({
    mode: 'onTouched',
    defaultValues: { token, password: '', confirmPassword: '' },
    resolver,
  });

  const onSubmit = handleSubmit((data) =>
    reset.mutate(data, {
      onSuccess: ({ message }) => setStatus({ tone: 'success', message }),
      onError: (error) => {
        setStatus({ tone: 'error', message: errorMessage(error) });
        showServerErrors(error, FIELDS, setError, { isFocusing: false });
      },
    }),
  );

  const footer = (
    <p>
      Need a new link?{' '}
      <Link to={paths.forgotPassword.getHref(role)} className={linkClass}>
        Request another reset e-mail
      </Link>
    </p>
  );

  if (!token) {
    return (
      <AuthLayout title="Choose a new password" footer={footer}>
        <Alert tone="error">{SERVER_MSG.resetInvalid}</Alert>
      </AuthLayout>
    );
  }

  const isDone = status?.tone === 'success';
  return (
    <AuthLayout title="Choose a new password" subtitle="Pick a password you do not use anywhere else." footer={footer}>
      <StatusBanner status={status} />
      {isDone ? (
        <Link to={paths.login[role].getHref()} className={buttonClasses({ size: 'lg', className: 'mt-6 w-full' })}>
          Go to login
        </Link>
      ) : (
        <form noValidate onSubmit={onSubmit} className={status ? 'mt-6 space-y-5' : 'space-y-5'}>
          {formState.errors.token?.message && <Alert tone="error">{formState.errors.token.message}</Alert>}
          <PasswordField
            id={ids.password}
            label="Password"
            autoComplete="new-password"
            hint="A capital letter, then 3 to 8 lowercase letters or digits."
            isVisible={isVisible}
            onVisibleChange={setIsVisible}
            alsoControls={[ids.confirm]}
            error={visibleError(formState, 'password')}
            {...register('password', { deps: ['confirmPassword'] })}
          />
          <PasswordField
            id={ids.confirm}
            label="Confirm Password"
            autoComplete="new-password"
            isVisible={isVisible}
            hasToggle={false}
            error={visibleError(formState, 'confirmPassword')}
            {...register('confirmPassword')}
          />
          <Button type="submit" size="lg" className="w-full" isLoading={reset.isPending}>
            Save new password
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

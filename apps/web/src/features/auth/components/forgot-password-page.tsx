import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ZForgotPasswordRequest } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { RadioGroup, TextField } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { paths, roleFrom } from '@/lib/paths';
import { useRequestPasswordReset, type ForgotPasswordPayload } from '../api/forgot-password';
import { AuthLayout } from './auth-layout';
import { StatusBanner, type Status } from './status-banner';

type ForgotValues = z.input<typeof ZForgotPasswordRequest>;

const linkClass = 'font-semibold text-ink underline underline-offset-4 hover:text-accent-ink';

export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const initialRole = roleFrom(params.get('role'), 'user');
  const requestReset = useRequestPasswordReset();
  const [status, setStatus] = useState<Status>(null);

  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ForgotValues, unknown, ForgotPasswordPayload>({
    mode: 'onTouched',
    defaultValues: { email: '', role: initialRole },
    resolver: zodResolver(ZForgotPasswordRequest),
  });
  const role = roleFrom(watch('role'), initialRole);

  const onSubmit = handleSubmit((data) =>
    requestReset.mutate(data, {
      onSuccess: ({ message }) => setStatus({ tone: 'success', message }),
      onError: (error) => setStatus({ tone: 'error', message: errorMessage(error) }),
    }),
  );

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the e-mail of your account and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it?{' '}
          <Link to={paths.login[role].getHref()} className={linkClass}>
            Back to login
          </Link>
        </p>
      }
    >
      <StatusBanner status={status} />
      <form noValidate onSubmit={onSubmit} className={status ? 'mt-6 space-y-5' : 'space-y-5'}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <RadioGroup
          legend="Account type"
          options={[
            { value: 'user', label: 'Trainee' },
            { value: 'trainer', label: 'Trainer' },
          ]}
          error={errors.role?.message}
          {...register('role')}
        />
        <Button type="submit" size="lg" className="w-full" isLoading={requestReset.isPending}>
          Send reset link
        </Button>
      </form>
    </AuthLayout>
  );
}

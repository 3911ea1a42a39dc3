import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { ZLoginRequest } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import { accountKeys, ownAccountQueryOptions } from '@/lib/api/accounts';
import { mergeFavoritesAfterLogin } from '@/lib/api/favorites';
import { showServerErrors } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { paths, safeNext, type Role } from '@/lib/paths';
import { storage } from '@/lib/storage';
import { useGoogleSignIn } from '../api/google-sign-in';
import { useLogin, type LoginPayload } from '../api/login';
import { useTimeout } from '../hooks/use-timeout';
import { GoogleSignIn } from './google-sign-in';
import { StatusBanner, type Status } from './status-banner';

type LoginValues = z.input<typeof ZLoginRequest>;

/** docs/product.md#states: the message shows for 3 s, then the user type is stored and the profile opens. */
export const LOGIN_REDIRECT_MS = 3000;

const FIELDS = ['email', 'password'] as const;

const resolver = lazyResolver(() => import('./login-resolver').then((module) => module.loginResolver));

export function LoginForm({ role }: { role: Role }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A private page sent the visitor here: go back to it rather than to the profile.
  const next = safeNext(params.get('next'));
  const queryClient = useQueryClient();
  const schedule = useTimeout();
  const loginMutation = useLogin();
  const googleMutation = useGoogleSignIn();
  const [status, setStatus] = useState<Status>(null);
  const [isDone, setIsDone] = useState(false);

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginValues, unknown, LoginPayload>({
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
    resolver,
  });

  /** A password or Google log-in succeeded: the same green alert, wait and profile (docs/product.md#google-sign-in). */
  const onLoggedIn = ({ message, token }: { message: string; token: string }) => {
    setStatus({ tone: 'success', message });
    setIsDone(true);
    storage.setToken(token);
    // docs/product.md#favourites: this browser's favourites join the account's (errors are ignored there).
    if (role === 'user') void mergeFavoritesAfterLogin(queryClient);
    queryClient.removeQueries({ queryKey: accountKeys.all });
    // Users keep their profile in storage (docs/product.md#browser-storage); fetching now also warms the profile page.
    const account =
      role === 'user' ? queryClient.fetchQuery(ownAccountQueryOptions('user')).catch(() => null) : Promise.resolve(null);
    schedule(
      () => {
        storage.setUserType(role);
        void account.then(() => navigate(next ?? paths.profile[role].getHref()));
      },
      LOGIN_REDIRECT_MS,
      // Left the page before the redirect: still finish logging in.
      () => storage.setUserType(role),
    );
  };

  const onGoogleCredential = (credential: string) => {
    if (isDone || googleMutation.isPending) return;
    setStatus(null);
    googleMutation.mutate(
      { role, credential },
      { onSuccess: onLoggedIn, onError: (error) => setStatus({ tone: 'error', message: errorMessage(error) }) },
    );
  };

  const onSubmit = handleSubmit((data) => {
    setStatus(null);
    loginMutation.mutate(
      { role, data },
      {
        onSuccess: onLoggedIn,
        onError: (error) => {
          setStatus({ tone: 'error', message: errorMessage(error) });
          showServerErrors(error, FIELDS, setError, { isFocusing: false });
        },
      },
    );
  });

  // the form's own alert: the server's answer, else validation that could not load
  const banner: Status = status ?? (errors.root?.message ? { tone: 'error', message: errors.root.message } : null);

  return (
    <>
      <StatusBanner status={banner} />
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className={banner ? 'mt-6 space-y-5' : 'space-y-5'}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <div>
          <PasswordField
            id={`${role}-login-password`}
            label="Password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <p className="mt-2 text-right text-sm">
            <Link
              to={paths.forgotPassword.getHref(role)}
              className="font-semibold text-ink underline underline-offset-4 hover:text-accent-ink"
            >
              Forgot password?
            </Link>
          </p>
        </div>
        <Button type="submit" size="lg" className="w-full" isLoading={loginMutation.isPending} disabled={isDone}>
          Login
        </Button>
      </form>
      <GoogleSignIn onCredential={onGoogleCredential} />
    </>
  );
}

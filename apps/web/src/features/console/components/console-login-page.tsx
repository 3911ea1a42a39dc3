import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { CONSOLE_MSG, CONSOLE_RULES } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import { consoleApi, ConsoleApiError, consoleSession, useConsoleSession } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { ConsolePage } from './console-layout';

const ids = { email: 'console-email', password: 'console-password', code: 'console-code' };
const MSG = { email: 'Enter your e-mail', password: 'Enter your password' } as const;

type Field = keyof typeof ids;
type Errors = Partial<Record<Field, string>>;

function validate(values: Record<Field, string>): Errors {
  const errors: Errors = {};
  if (!values.email.trim()) errors.email = MSG.email;
  if (!values.password) errors.password = MSG.password;
  if (values.code.trim().length < CONSOLE_RULES.codeDigits) errors.code = CONSOLE_MSG.codeRequired;
  return errors;
}

/** Seconds left until `until` (ms), ticking each second while there are any. */
function useSecondsLeft(until: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= until) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * `/console/login` (docs/product.md#the-operator-console): e-mail, password and the authenticator's
 * code, or one of the recovery codes. Every failure is the server's one message; a throttled
 * sign-in says how long to wait.
 */
export function ConsoleLoginPage() {
  const { token, notice } = useConsoleSession();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', password: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [isRecovery, setIsRecovery] = useState(false);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const secondsLeft = useSecondsLeft(waitUntil);
  const login = useMutation({ mutationFn: consoleApi.login });

  if (token && !login.isSuccess) return <Navigate to={paths.console.audit.getHref()} replace />;

  const field = (name: Field) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value })),
    error: errors[name],
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    const first = (Object.keys(ids) as Field[]).find((name) => found[name]);
    if (first) {
      document.getElementById(ids[first])?.focus();
      return;
    }
    login.mutate(
      { email: values.email.trim(), password: values.password, code: values.code.trim() },
      {
        onSuccess: ({ token: signedIn }) => {
          consoleSession.signIn(signedIn);
          void navigate(paths.console.audit.getHref(), { replace: true });
        },
        onError: (error) => {
          // a code is spent or wrong either way: the next try needs a new one
          setValues((v) => ({ ...v, code: '' }));
          if (error instanceof ConsoleApiError && error.status === 429) {
            setWaitUntil(Date.now() + (error.retryAfterSeconds ?? 60) * 1000);
          }
        },
      },
    );
  };

  const isThrottled = login.error instanceof ConsoleApiError && login.error.status === 429;
  const failure = login.error
    ? isThrottled
      ? secondsLeft > 0
        ? `Too many sign-in attempts. Try again in ${secondsLeft} second${secondsLeft === 1 ? '' : 's'}.`
        : 'You can try again now.'
      : errorMessage(login.error)
    : null;

  return (
    <ConsolePage title="Sign in to the console">
      {notice && !login.error && (
        <Alert tone="info" className="mb-6">
          {notice}
        </Alert>
      )}
      {/* the region is on the page before its message, so the message is announced */}
      <div aria-live="assertive" aria-atomic="true">
        {failure && (
          <Alert tone={isThrottled && secondsLeft === 0 ? 'info' : 'error'} isLive={false} className="mb-6">
            {failure}
          </Alert>
        )}
      </div>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <TextField
          id={ids.email}
          label="E-mail"
          type="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          {...field('email')}
        />
        <PasswordField id={ids.password} label="Password" autoComplete="current-password" required {...field('password')} />
        <div>
          <TextField
            id={ids.code}
            label={isRecovery ? 'Recovery code' : 'Authenticator code'}
            hint={
              isRecovery
                ? 'One of the recovery codes you kept; each works once.'
                : `The ${CONSOLE_RULES.codeDigits} digits your authenticator app shows now, or a recovery code.`
            }
            autoComplete="one-time-code"
            inputMode={isRecovery ? 'text' : 'numeric'}
            autoCapitalize="none"
            spellCheck={false}
            required
            {...field('code')}
          />
          <button
            type="button"
            onClick={() => setIsRecovery((on) => !on)}
            className="mt-2 min-h-11 text-sm font-semibold text-ink underline underline-offset-4 hover:text-accent-ink"
          >
            {isRecovery ? 'Use the authenticator code instead' : 'Use a recovery code instead'}
          </button>
        </div>
        <Button type="submit" size="lg" className="w-full" isLoading={login.isPending} disabled={secondsLeft > 0}>
          Sign in
        </Button>
      </form>
    </ConsolePage>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CONSOLE_MSG, CONSOLE_RULES, MSG, ZConsoleWelcomeRequest, type TConsoleWelcomeResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { consoleApi } from '@/lib/api/console';
import { paths } from '@/lib/paths';
import { saveFile } from '../utils/save-file';
import { ConsolePage } from './console-layout';
import { QrCode } from './qr-code';

const ids = { password: 'console-welcome-password', confirm: 'console-welcome-confirm' };

type Errors = { password?: string; confirm?: string };

function validate(password: string, confirm: string): Errors {
  const parsed = ZConsoleWelcomeRequest.shape.password.safeParse(password);
  const errors: Errors = {};
  if (!parsed.success) errors.password = parsed.error.issues[0]?.message ?? CONSOLE_MSG.passwordShort;
  if (password !== confirm) errors.confirm = MSG.passwordsMatch;
  return errors;
}

/**
 * `/console/welcome?token=…`, the one-time link `npm run operator -- add` prints
 * (docs/product.md#the-operator-console): the operator sets a password, and is shown once the second
 * factor: a QR code and the secret for an authenticator app, and ten recovery codes.
 */
export function ConsoleWelcomePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [isVisible, setIsVisible] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const welcome = useMutation({ mutationFn: consoleApi.welcome });

  const isLinkInvalid = !token || (welcome.error instanceof ApiError && welcome.error.code === 'LINK_INVALID');
  if (isLinkInvalid) {
    return (
      <ConsolePage title="Welcome link not valid" focusHeading={Boolean(token)}>
        <Alert tone="error">{CONSOLE_MSG.welcomeInvalid}</Alert>
        <p className="mt-6 text-sm text-muted">
          Already set your password and authenticator app?{' '}
          <Link to={paths.console.login.getHref()} className="font-semibold text-ink underline underline-offset-4">
            Sign in to the console
          </Link>
        </p>
      </ConsolePage>
    );
  }
  if (welcome.data) return <SecondFactor factor={welcome.data} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) {
      document.getElementById(found.password ? ids.password : ids.confirm)?.focus();
      return;
    }
    welcome.mutate(
      { token, password },
      {
        onError: (error) => {
          const fieldError = error instanceof ApiError ? error.errors?.password : undefined;
          if (fieldError) setErrors({ password: fieldError });
        },
      },
    );
  };

  const serverError = welcome.error && !(welcome.error instanceof ApiError && welcome.error.errors?.password);
  return (
    <ConsolePage title="Welcome to the Spotter console">
      <p className="text-muted">
        Choose the password you will sign in to the console with. Then you will set up an authenticator app for the second factor.
      </p>
      {/* the region is on the page before its message, so the message is announced */}
      <div aria-live="assertive" aria-atomic="true">
        {serverError && (
          <Alert tone="error" isLive={false} className="mt-6">
            {errorMessage(welcome.error)}
          </Alert>
        )}
      </div>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
        <PasswordField
          id={ids.password}
          label="Password"
          autoComplete="new-password"
          hint={`At least ${CONSOLE_RULES.passwordMin} characters, used for the console only.`}
          isVisible={isVisible}
          onVisibleChange={setIsVisible}
          alsoControls={[ids.confirm]}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          required
        />
        <PasswordField
          id={ids.confirm}
          label="Confirm password"
          autoComplete="new-password"
          isVisible={isVisible}
          hasToggle={false}
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors.confirm}
          required
        />
        <Button type="submit" size="lg" className="w-full" isLoading={welcome.isPending}>
          Set password
        </Button>
      </form>
    </ConsolePage>
  );
}

const codesText = (codes: string[]) =>
  ['Spotter console: recovery codes', 'Each code signs you in once, in place of an authenticator code.', '', ...codes, ''].join(
    '\n',
  );

/** The second factor, shown once: nothing here can be shown again. */
function SecondFactor({ factor }: { factor: TConsoleWelcomeResponse }) {
  const [copyStatus, setCopyStatus] = useState('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(factor.recoveryCodes.join('\n'));
      setCopyStatus('Copied the recovery codes.');
    } catch {
      setCopyStatus('Could not copy: select the codes, or download them.');
    }
  };
  const download = () =>
    saveFile(
      new Blob([codesText(factor.recoveryCodes)], { type: 'text/plain;charset=utf-8' }),
      'spotter-console-recovery-codes.txt',
    );

  return (
    <ConsolePage title="Set up your second factor" focusHeading>
      <Alert tone="warning" title="Shown once">
        The QR code, the secret and the recovery codes are shown only now. Add the account to your authenticator app and keep the
        recovery codes before you leave this page.
      </Alert>

      <section aria-labelledby="console-app-heading" className="mt-8">
        <h2 id="console-app-heading" className="text-lg font-semibold text-ink">
          1. Add the console to your authenticator app
        </h2>
        <p className="mt-2 text-sm text-muted">Scan the QR code with the app, or type the secret into it.</p>
        <div className="mt-4">
          <QrCode text={factor.otpauthUrl} alt="QR code for your authenticator app: adds the Spotter console account" />
        </div>
        <p className="mt-4 text-sm font-semibold text-ink" id="console-secret-label">
          Secret (to type into the app)
        </p>
        <code
          aria-labelledby="console-secret-label"
          data-testid="console-secret"
          className="mt-1 block rounded-lg border border-line bg-canvas px-3 py-2 font-mono text-base break-all text-ink"
        >
          {factor.totpSecret}
        </code>
      </section>

      <section aria-labelledby="console-codes-heading" className="mt-8">
        <h2 id="console-codes-heading" className="text-lg font-semibold text-ink">
          2. Keep your recovery codes
        </h2>
        <p className="mt-2 text-sm text-muted">
          Without your phone, each of these signs you in once in place of an authenticator code. Keep them somewhere safe, apart
          from your password.
        </p>
        <ol
          aria-label="Recovery codes"
          className="mt-4 grid grid-cols-2 gap-2 rounded-xl border border-line bg-canvas p-4 font-mono text-base text-ink"
        >
          {factor.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button variant="outline" onClick={() => void copy()}>
            Copy
          </Button>
          <Button variant="outline" onClick={download}>
            Download
          </Button>
        </div>
        <p role="status" className="mt-2 min-h-5 text-sm text-muted">
          {copyStatus}
        </p>
      </section>

      <Link to={paths.console.login.getHref()} className={buttonClasses({ size: 'lg', className: 'mt-8 w-full' })}>
        Continue to sign in
      </Link>
    </ConsolePage>
  );
}

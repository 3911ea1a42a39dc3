import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useOwnAccount } from '@/lib/own-account';
import { useSession } from '@/lib/session';
import { useResendVerification } from '../api/resend-verification';

/** Shown under the header while the logged-in account has not confirmed its e-mail (DECISIONS 10). */
export function VerifyReminder() {
  const { isLoggedIn, role } = useSession();
  const account = useOwnAccount(role, { enabled: isLoggedIn });
  const resend = useResendVerification();

  if (!isLoggedIn || account.data?.emailVerified !== false) return null;

  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: ({ message }) => notify.success(message),
      onError: (error) => notify.error(errorMessage(error)),
    });

  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4 sm:px-6">
      <Alert
        tone="warning"
        isLive={false}
        action={
          <Button variant="outline" onClick={onResend} isLoading={resend.isPending}>
            Resend
          </Button>
        }
      >
        Please verify your e-mail. We sent you a link when you signed up
        {account.data.email ? ` to ${account.data.email}` : ''}.
      </Alert>
    </div>
  );
}

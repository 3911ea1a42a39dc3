import { ResendVerificationButton } from '@/components/resend-verification-button';
import { Alert } from '@/components/ui/alert';
import { useOwnAccount } from '@/lib/api/accounts';
import { useSession } from '@/lib/session';

/** Shown under the header while the logged-in account has not confirmed its e-mail (docs/product.md#e-mail-verification). */
export function VerifyReminder() {
  const { isLoggedIn, role } = useSession();
  const account = useOwnAccount(role, { enabled: isLoggedIn });

  if (!isLoggedIn || account.data?.emailVerified !== false) return null;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4 sm:px-6">
      <Alert tone="warning" isLive={false} action={<ResendVerificationButton />}>
        Please verify your e-mail. We sent you a link when you signed up
        {account.data.email ? ` to ${account.data.email}` : ''}.
      </Alert>
    </div>
  );
}

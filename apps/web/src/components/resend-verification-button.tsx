import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useResendVerification } from '@/lib/api/accounts';
import { notify } from '@/lib/toast';

/** Sends a new verification link to the logged-in account and says how it went in a toast. */
export function ResendVerificationButton() {
  const resend = useResendVerification();
  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: ({ message }) => notify.success(message),
      onError: (error) => notify.error(errorMessage(error)),
    });
  return (
    <Button variant="outline" onClick={onResend} isLoading={resend.isPending}>
      Resend
    </Button>
  );
}

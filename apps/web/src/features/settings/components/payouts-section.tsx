import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { PAYOUT_MSG, ZPayoutAddressRequest, type TPayoutAddressRequest } from '@spotter/shared';
import { PayoutHistory } from '@/components/payout-history';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePayoutAddress, useSavePayoutAddress } from '@/lib/api/payouts';
import { showServerErrors } from '@/lib/form-errors';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { visibleError } from '@/lib/visible-error';
import { FormError, SavedNote } from './form-feedback';
import { SettingsSection } from './settings-section';

type PayoutValues = { email: string };

function PayoutAddressForm({ email }: { email: string | null }) {
  const { token } = useSession();
  const save = useSavePayoutAddress(token);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const { register, handleSubmit, setError, reset, formState } = useForm<PayoutValues, unknown, TPayoutAddressRequest>({
    mode: 'onTouched',
    defaultValues: { email: email ?? '' },
    resolver: zodResolver(ZPayoutAddressRequest),
  });

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    save.mutate(data, {
      onSuccess: (answer) => {
        const message = answer.message ?? PAYOUT_MSG.addressSaved;
        notify.success(message);
        setSaved(message);
        reset({ email: answer.email ?? '' });
      },
      onError: (error) => {
        const isOnField = showServerErrors(error, ['email'], setError);
        setFailure(isOnField ? 'Please check the highlighted field.' : errorMessage(error));
      },
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      {email ? (
        <p className="text-sm text-ink">
          Payouts go to <strong className="font-semibold break-all">{email}</strong>.
        </p>
      ) : (
        <Alert tone="warning" title="No payout address yet" isLive={false}>
          Payouts wait until you add the e-mail of your PayPal account.
        </Alert>
      )}
      <TextField
        label="PayPal e-mail"
        type="email"
        inputMode="email"
        autoComplete="email"
        hint="The e-mail address of the PayPal account that receives your payouts."
        containerClassName="max-w-lg"
        error={visibleError(formState, 'email')}
        {...register('email')}
      />
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={save.isPending}>
          Save payout address
        </Button>
        <SavedNote message={formState.isDirty ? null : saved} />
      </div>
    </form>
  );
}

function PayoutsBody() {
  const { token } = useSession();
  const address = usePayoutAddress(token);
  if (address.isPending) {
    return (
      <div aria-busy="true">
        <span role="status" className="sr-only">
          Loading your payout address…
        </span>
        <Skeleton className="h-5 w-64" />
        <Skeleton className="mt-5 h-11 w-full max-w-lg" />
      </div>
    );
  }
  if (address.isError) {
    return (
      <Alert
        tone="error"
        title="Could not load your payout address"
        action={
          <Button variant="outline" onClick={() => void address.refetch()} isLoading={address.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(address.error)}
      </Alert>
    );
  }
  return <PayoutAddressForm email={address.data.email} />;
}

/** Where a trainer's payouts go (docs/decisions/042-money-ledger.md#payouts), and the payouts made. */
export function PayoutsSection() {
  return (
    <SettingsSection
      id="payouts"
      title="Payouts"
      description={
        <>
          Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it. Payouts are
          sent regularly, in batches, through PayPal to this address. If PayPal cannot deliver one, the money goes back to your
          payable balance and we let you know.
        </>
      }
    >
      <PayoutsBody />
      <div className="mt-8 border-t border-line pt-6">
        <h3 className="font-display text-lg font-bold text-ink">Payout history</h3>
        <p className="mt-1 mb-4 text-sm text-muted">Newest first, with the address each payout went to.</p>
        <PayoutHistory label="Payout history" linksToAddress={false} />
      </div>
      <p className="mt-5 text-sm">
        <Link
          to={`${paths.payments.trainer.getHref()}#payouts`}
          className="inline-flex min-h-11 items-center font-semibold text-accent-ink underline underline-offset-4 hover:text-ink"
        >
          See your earnings and payouts
        </Link>
      </p>
    </SettingsSection>
  );
}

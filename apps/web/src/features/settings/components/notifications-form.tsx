import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { TNotifications } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import type { OwnAccount } from '@/lib/api/accounts';
import type { Role } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { useSetNotifications } from '../api/set-notifications';
import { useRefreshAccount } from '../hooks/use-refresh-account';
import { FormError, SavedNote } from './form-feedback';

const choices = [
  {
    name: 'account',
    label: 'Account',
    description: 'Security alerts, booking confirmations and messages about your account.',
  },
  {
    name: 'marketing',
    label: 'Marketing',
    description: 'Training tips, offers and Spotter news, at most twice a month.',
  },
] as const;

/** Account and Marketing e-mails, starting from what the server has saved. */
export function NotificationsForm({ role, account }: { role: Role; account: OwnAccount }) {
  const setNotifications = useSetNotifications();
  const refreshAccount = useRefreshAccount(role);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<TNotifications>({
    defaultValues: account.notifications,
  });

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    setNotifications.mutate(
      { role, data },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setSaved(message);
          reset(data);
          void refreshAccount();
        },
        onError: (error) => setFailure(errorMessage(error)),
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <fieldset>
        <legend className="sr-only">E-mails we may send you</legend>
        <div className="space-y-3">
          {choices.map((choice) => {
            const id = `notify-${choice.name}`;
            return (
              <div
                key={choice.name}
                className="flex items-start gap-3 rounded-xl border border-line p-4 has-[:checked]:border-ink has-[:checked]:bg-accent-soft"
              >
                <input
                  id={id}
                  type="checkbox"
                  aria-describedby={`${id}-description`}
                  className="mt-0.5 size-5 shrink-0 accent-ink"
                  {...register(choice.name)}
                />
                <div>
                  <label htmlFor={id} className="font-semibold text-ink">
                    {choice.label}
                  </label>
                  <p id={`${id}-description`} className="text-sm text-muted">
                    {choice.description}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={setNotifications.isPending}>
          Save notifications
        </Button>
        <SavedNote message={formState.isDirty ? null : saved} />
      </div>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Trash } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ZDeleteAccountRequest } from '@spotter/shared';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { PasswordField } from '@/components/ui/password-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { Role } from '@/lib/paths';
import { useLogout } from '@/lib/logout';
import { notify } from '@/lib/toast';
import { useDeleteAccount } from '../api/delete-account';
import { showServerErrors } from '@/lib/form-errors';
import { FormError } from './form-feedback';

/** Red is for errors and destructive actions only (docs/product.md#design). */
const dangerButton =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full bg-danger px-5 text-sm font-semibold whitespace-nowrap text-on-ink ' +
  'transition-opacity duration-150 hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60';

type DeleteValues = { password: string };

function DeleteAccountForm({ role }: { role: Role }) {
  const logout = useLogout();
  const deleteAccount = useDeleteAccount();
  const [failure, setFailure] = useState<string | null>(null);
  const passwordId = useId();
  const { register, handleSubmit, setError, formState } = useForm<DeleteValues>({
    mode: 'onTouched',
    defaultValues: { password: '' },
    resolver: zodResolver(ZDeleteAccountRequest),
  });

  const onSubmit = handleSubmit(({ password }) => {
    setFailure(null);
    deleteAccount.mutate(
      { role, password },
      {
        onSuccess: ({ message }) => {
          // Signed out everywhere by the server; forget the session here too (docs/product.md#states).
          notify.success(message);
          void logout();
        },
        onError: (error) => {
          if (!showServerErrors(error, ['password'], setError)) setFailure(errorMessage(error));
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <PasswordField
        id={passwordId}
        label="Password"
        autoComplete="current-password"
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <FormError message={failure} />
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose className="inline-flex min-h-11 items-center rounded-full border border-line-strong px-5 text-sm font-semibold text-ink hover:bg-surface">
          Cancel
        </DialogClose>
        <button
          type="submit"
          className={dangerButton}
          disabled={deleteAccount.isPending}
          aria-busy={deleteAccount.isPending || undefined}
        >
          {deleteAccount.isPending && <Spinner label={null} className="size-4" />}
          Delete my account
        </button>
      </div>
    </form>
  );
}

/** Delete Account: a confirmation dialog that asks for the password (docs/product.md#settings-that-work). */
export function DeleteAccountSection({ role }: { role: Role }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="max-w-prose text-sm text-muted">
        Your profile, photo, contact details, favourites and weight history are removed and you are signed out everywhere.{' '}
        {role === 'user' ? 'Reviews you wrote stay, shown as "Former member".' : 'Your profile leaves the trainer list.'}
      </p>
      <Dialog>
        <DialogTrigger className={cn(dangerButton, 'shrink-0')}>
          <Trash className="size-4" aria-hidden="true" />
          Delete Account
        </DialogTrigger>
        <DialogContent title="Delete your account?" description="This cannot be undone. Enter your password to confirm.">
          <DeleteAccountForm role={role} />
        </DialogContent>
      </Dialog>
    </div>
  );
}

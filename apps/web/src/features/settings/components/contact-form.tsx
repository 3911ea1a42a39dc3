import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import { ZContactRequest } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { InputUnit, TextField } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import type { OwnAccount } from '@/lib/api/accounts';
import type { Role } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { useEditContact, type ContactPayload } from '../api/edit-contact';
import { showServerErrors } from '@/lib/form-errors';
import { useRefreshAccount } from '../hooks/use-refresh-account';
import { visibleError } from '@/lib/visible-error';
import { FormError, SavedNote } from './form-feedback';

/** As typed: the numbers are text until the schema turns them into numbers. */
type ContactValues = { phone: string; website: string; weight: string; height: string };

const FIELDS = ['phone', 'website', 'weight', 'height'] as const satisfies FieldPath<ContactValues>[];

const valuesOf = (account: OwnAccount): ContactValues => ({
  phone: account.phone,
  website: account.website,
  weight: account.weight ? String(account.weight) : '',
  height: account.height ? String(account.height) : '',
});

/** Contact Info: phone, website, weight and height. Every save also records the weight. */
export function ContactForm({ role, account }: { role: Role; account: OwnAccount }) {
  const editContact = useEditContact();
  const refreshAccount = useRefreshAccount(role);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const { register, handleSubmit, setError, reset, formState } = useForm<ContactValues, unknown, ContactPayload>({
    mode: 'onTouched',
    defaultValues: valuesOf(account),
    resolver: zodResolver(ZContactRequest as unknown as z.ZodType<ContactPayload, ContactValues>),
  });
  const errorFor = (name: FieldPath<ContactValues>) => visibleError(formState, name);

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    editContact.mutate(
      { role, data },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setSaved(message);
          reset({ phone: data.phone, website: data.website, weight: String(data.weight), height: String(data.height) });
          void refreshAccount();
        },
        onError: (error) => {
          const isOnField = showServerErrors(error, FIELDS, setError);
          setFailure(isOnField ? 'Please check the highlighted fields.' : errorMessage(error));
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          hint="Egyptian mobile number, 11 digits, e.g. 01012345678."
          error={errorFor('phone')}
          {...register('phone')}
        />
        <TextField
          label="Website"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://"
          hint="Optional. Shown in your profile header."
          error={errorFor('website')}
          {...register('website')}
        />
        <TextField
          label="Weight"
          type="number"
          inputMode="numeric"
          hint="In kilograms; each save adds a point to your weight chart."
          suffix={<InputUnit>kg</InputUnit>}
          error={errorFor('weight')}
          {...register('weight')}
        />
        <TextField
          label="Height"
          type="number"
          inputMode="numeric"
          hint="In centimetres"
          suffix={<InputUnit>cm</InputUnit>}
          error={errorFor('height')}
          {...register('height')}
        />
      </div>
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={editContact.isPending}>
          Add
        </Button>
        <SavedNote message={formState.isDirty ? null : saved} />
      </div>
    </form>
  );
}

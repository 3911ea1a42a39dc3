import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { LIMITS, ZEditProfileRequest, ZEditTrainerProfileRequest } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import type { OwnAccount } from '@/lib/own-account';
import type { Role } from '@/lib/paths';
import { storage } from '@/lib/storage';
import { notify } from '@/lib/toast';
import { useEditProfile, type EditProfilePayload } from '../api/edit-profile';
import { showServerErrors } from '../hooks/server-errors';
import { useRefreshAccount } from '../hooks/use-refresh-account';
import { visibleError } from '@/lib/visible-error';
import { FormError, SavedNote } from './form-feedback';
import { TextAreaField } from './text-area-field';

/** Form values as typed; the price is text until the schema turns it into a number. */
type PersonalValues = {
  firstName: string;
  lastName: string;
  email: string;
  title: string;
  description: string;
  price?: string;
};

const FIELDS = ['firstName', 'lastName', 'email', 'title', 'description', 'price'] as const satisfies FieldPath<PersonalValues>[];

function valuesOf(account: OwnAccount): PersonalValues {
  return {
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    title: account.title,
    description: account.description,
    ...('price' in account ? { price: String(account.price) } : {}),
  };
}

function personalResolver(role: Role): Resolver<PersonalValues, unknown, EditProfilePayload> {
  // The user schema has no price, so one value type serves both roles.
  const schema = (role === 'trainer' ? ZEditTrainerProfileRequest : ZEditProfileRequest) as unknown as z.ZodType<
    EditProfilePayload,
    PersonalValues
  >;
  return zodResolver(schema);
}

/** Personal Details (spec section 5, "Settings personal details"), validated once touched. */
export function PersonalDetailsForm({ role, account }: { role: Role; account: OwnAccount }) {
  const editProfile = useEditProfile();
  const refreshAccount = useRefreshAccount(role);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const resolver = useMemo(() => personalResolver(role), [role]);

  const { register, handleSubmit, setError, reset, control, formState } = useForm<PersonalValues, unknown, EditProfilePayload>({
    mode: 'onTouched',
    defaultValues: valuesOf(account),
    resolver,
  });
  const [title = '', description = ''] = useWatch({ control, name: ['title', 'description'] });
  const errorFor = (name: FieldPath<PersonalValues>) => visibleError(formState, name);

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    editProfile.mutate(
      { role, data },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setSaved(message);
          // The saved values become the form's new starting point.
          const { price, ...details } = data;
          reset({ ...details, ...(price === undefined ? {} : { price: String(price) }) });
          if (role === 'user') storage.setUserData({ ...storage.getUserData(), ...data });
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
        <TextField label="First Name" autoComplete="given-name" error={errorFor('firstName')} {...register('firstName')} />
        <TextField label="Last Name" autoComplete="family-name" error={errorFor('lastName')} {...register('lastName')} />
      </div>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        hint="If you change it, we send a verification link to the new address."
        error={errorFor('email')}
        {...register('email')}
      />
      <TextField
        label="Title"
        placeholder={role === 'trainer' ? 'e.g. Strength coach' : 'e.g. Marathon in training'}
        hint={`${title.length} / ${LIMITS.titleMax} characters`}
        error={errorFor('title')}
        {...register('title')}
      />
      <TextAreaField
        label="Description"
        length={description.length}
        maxLength={LIMITS.descriptionMax}
        error={errorFor('description')}
        {...register('description')}
      />
      {role === 'trainer' && (
        <TextField
          label="Price"
          type="number"
          inputMode="numeric"
          min={LIMITS.priceMin}
          hint="Per session, in US dollars"
          prefix="$"
          error={errorFor('price')}
          {...register('price')}
        />
      )}
      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={editProfile.isPending}>
          Save details
        </Button>
        <SavedNote message={formState.isDirty ? null : saved} />
      </div>
    </form>
  );
}

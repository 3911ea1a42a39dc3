import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import { useForm, useWatch, type FieldErrors, type FieldPath, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  CITY_SUGGESTIONS,
  DEFAULT_COUNTRY,
  LIMITS,
  SETTINGS_MSG,
  ZPersonalDetailsForm,
  ZTrainerPersonalDetailsForm,
} from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import type { OwnAccount } from '@/lib/api/accounts';
import { showServerErrors } from '@/lib/form-errors';
import type { Role } from '@/lib/paths';
import { storage } from '@/lib/storage';
import { notify } from '@/lib/toast';
import { visibleError } from '@/lib/visible-error';
import { useEditProfile, type EditProfilePayload } from '../api/edit-profile';
import { useRefreshAccount } from '../hooks/use-refresh-account';
import { FormError, SavedNote } from './form-feedback';
import { TextAreaField } from './text-area-field';

/** Form values as typed; the price is text until the schema turns it into a number. */
type PersonalValues = {
  firstName: string;
  lastName: string;
  email: string;
  title: string;
  description: string;
  city: string;
  country: string;
  price?: string;
  currentPassword: string;
};
type PersonalOutput = z.output<typeof ZPersonalDetailsForm> & { price?: number };

const FIELDS = [
  'firstName',
  'lastName',
  'email',
  'title',
  'description',
  'city',
  'country',
  'price',
  'currentPassword',
] as const satisfies FieldPath<PersonalValues>[];

function valuesOf(account: OwnAccount): PersonalValues {
  return {
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    title: account.title,
    description: account.description,
    city: account.city,
    // an account made before countries were asked has none: Egypt, where Spotter works
    country: account.country || DEFAULT_COUNTRY,
    ...('price' in account ? { price: String(account.price) } : {}),
    currentPassword: '',
  };
}

const isNewEmail = (typed: string, saved: string) => typed.trim().toLowerCase() !== saved.toLowerCase();

/** The shared rules, plus: a new e-mail needs the current password (the server checks it). */
function personalResolver(role: Role, savedEmail: string): Resolver<PersonalValues, unknown, PersonalOutput> {
  // The user schema has no price, so one value type serves both roles.
  const schema = (role === 'trainer' ? ZTrainerPersonalDetailsForm : ZPersonalDetailsForm) as unknown as z.ZodType<
    PersonalOutput,
    PersonalValues
  >;
  const shared = zodResolver(schema);
  return async (values, context, options) => {
    const result = await shared(values, context, options);
    if (!isNewEmail(values.email, savedEmail) || values.currentPassword !== '') return result;
    const currentPassword = { type: 'required', message: SETTINGS_MSG.currentPasswordForEmail };
    return { values: {}, errors: { ...result.errors, currentPassword } as FieldErrors<PersonalValues> };
  };
}

/**
 * The request: the names and e-mail as typed; an emptied title or description as `null` (an empty
 * string would mean "unchanged" to the server); the current password only with a new e-mail.
 */
function payloadOf(data: PersonalOutput, savedEmail: string): EditProfilePayload {
  const { currentPassword, title, description, ...rest } = data;
  return {
    ...rest,
    title: title === '' ? null : title,
    description: description === '' ? null : description,
    ...(isNewEmail(data.email, savedEmail) ? { currentPassword } : {}),
  };
}

/** Personal Details (docs/product.md#settings-rules), validated once touched. */
export function PersonalDetailsForm({ role, account }: { role: Role; account: OwnAccount }) {
  const editProfile = useEditProfile();
  const refreshAccount = useRefreshAccount(role);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // the address the server has now; a successful change makes the new one the saved one
  const [savedEmail, setSavedEmail] = useState(account.email);
  const resolver = useMemo(() => personalResolver(role, savedEmail), [role, savedEmail]);
  const currentPasswordId = useId();
  const cityListId = useId();

  const { register, handleSubmit, setError, reset, control, formState } = useForm<PersonalValues, unknown, PersonalOutput>({
    mode: 'onTouched',
    defaultValues: valuesOf(account),
    resolver,
  });
  const [title = '', description = '', email = ''] = useWatch({ control, name: ['title', 'description', 'email'] });
  const isEmailChanging = isNewEmail(email, savedEmail);
  const errorFor = (name: FieldPath<PersonalValues>) => visibleError(formState, name);

  const onSubmit = handleSubmit((data) => {
    setFailure(null);
    setSaved(null);
    editProfile.mutate(
      { role, data: payloadOf(data, savedEmail) },
      {
        onSuccess: ({ message }) => {
          notify.success(message);
          setSaved(message);
          setSavedEmail(data.email);
          // The saved values become the form's new starting point.
          const { price, currentPassword: _password, ...details } = data;
          reset({
            ...details,
            city: details.city ?? '',
            country: details.country ?? '',
            currentPassword: '',
            ...(price === undefined ? {} : { price: String(price) }),
          });
          if (role === 'user') storage.setUserData({ ...storage.getUserData(), ...details });
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
      {isEmailChanging && (
        <PasswordField
          id={currentPasswordId}
          label="Current password"
          autoComplete="current-password"
          hint="To change your e-mail, confirm it is you."
          error={errorFor('currentPassword')}
          {...register('currentPassword')}
        />
      )}
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
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <TextField
            label="City"
            autoComplete="address-level2"
            list={cityListId}
            hint={role === 'trainer' ? 'Trainees filter the list by city. Pick one or type yours.' : 'Pick one or type yours.'}
            error={errorFor('city')}
            {...register('city')}
          />
          <datalist id={cityListId}>
            {CITY_SUGGESTIONS.map((city) => (
              <option key={city} value={city} />
            ))}
          </datalist>
        </div>
        <TextField label="Country" autoComplete="country-name" error={errorFor('country')} {...register('country')} />
      </div>
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

import { useMemo, useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { CITY_SUGGESTIONS, DEFAULT_COUNTRY } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { InputUnit, RadioGroup, TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessage } from '@/lib/api-client';
import { lazyResolver } from '@/lib/lazy-resolver';
import { showServerErrors } from '@/lib/form-errors';
import { paths, type Role } from '@/lib/paths';
import { useRegister, type SignUpPayload } from '../api/register';
import { scrollToTop } from '../utils/scroll-to-top';
import { useTimeout } from '../hooks/use-timeout';
import { visibleError } from '@/lib/visible-error';
import type { SignUpValues } from './sign-up-resolver';
import { StatusBanner, type Status } from './status-banner';

/** docs/product.md#after-sign-up: after a successful sign-up, go to the login of that role. */
const SIGN_UP_REDIRECT_MS = 4000;

const defaultValues: SignUpValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  phone: '',
  gender: 'male',
  age: '',
  height: '',
  weight: '',
  price: '',
  city: '',
  country: DEFAULT_COUNTRY,
};

const FIELDS = Object.keys(defaultValues) as FieldPath<SignUpValues>[];

export function SignUpForm({ role }: { role: Role }) {
  const navigate = useNavigate();
  const schedule = useTimeout();
  const registerAccount = useRegister();
  const [status, setStatus] = useState<Status>(null);
  const [isPasswordVisible, setIsPasswordVisible] = useState(false);
  const [isDone, setIsDone] = useState(false);
  // zod and the schemas load on the form's first focus or validation, not before it renders
  // (docs/decisions/028-lean-first-screen-fonts-and-forms.md)
  const resolver = useMemo(
    () => lazyResolver(() => import('./sign-up-resolver').then((module) => module.signUpResolver(role))),
    [role],
  );

  const { register, handleSubmit, setError, formState } = useForm<SignUpValues, unknown, SignUpPayload>({
    mode: 'onTouched',
    defaultValues,
    resolver,
  });

  const errorFor = (name: FieldPath<SignUpValues>) => visibleError(formState, name);
  // the server's answer, or the validation that could not load (lazyResolver's root error)
  const rootError = formState.errors.root?.message;
  const banner: Status = status ?? (rootError ? { tone: 'error', message: rootError } : null);

  const onSubmit = handleSubmit((data) => {
    registerAccount.mutate(
      { role, data },
      {
        onSuccess: ({ message }) => {
          setStatus({ tone: 'success', message });
          setIsDone(true);
          scrollToTop();
          schedule(() => navigate(paths.login[role].getHref()), SIGN_UP_REDIRECT_MS);
        },
        onError: (error) => {
          setStatus({ tone: 'error', message: errorMessage(error) });
          showServerErrors(error, FIELDS, setError, { isFocusing: false });
          scrollToTop();
        },
      },
    );
  });

  const passwordIds = { password: `${role}-signup-password`, confirm: `${role}-signup-confirm-password` };
  const cityListId = `${role}-signup-cities`;

  return (
    <>
      <StatusBanner status={banner} />
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className={banner ? 'mt-6 space-y-5' : 'space-y-5'}>
        <p className="text-sm text-subtle">All fields are required.</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="First Name" autoComplete="given-name" error={errorFor('firstName')} {...register('firstName')} />
          <TextField label="Last Name" autoComplete="family-name" error={errorFor('lastName')} {...register('lastName')} />
        </div>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errorFor('email')}
          {...register('email')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <PasswordField
            id={passwordIds.password}
            label="Password"
            autoComplete="new-password"
            hint="A capital letter, then 3 to 8 lowercase letters or digits."
            isVisible={isPasswordVisible}
            onVisibleChange={setIsPasswordVisible}
            alsoControls={[passwordIds.confirm]}
            error={errorFor('password')}
            {...register('password', { deps: ['confirmPassword'] })}
          />
          <PasswordField
            id={passwordIds.confirm}
            label="Confirm Password"
            autoComplete="new-password"
            isVisible={isPasswordVisible}
            hasToggle={false}
            error={errorFor('confirmPassword')}
            {...register('confirmPassword')}
          />
        </div>
        <TextField
          label="Phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          hint="Egyptian mobile number, 11 digits, e.g. 01012345678."
          error={errorFor('phone')}
          {...register('phone')}
        />
        <RadioGroup
          legend="Gender"
          options={[
            { value: 'male', label: 'Male' },
            { value: 'female', label: 'Female' },
          ]}
          error={errorFor('gender')}
          {...register('gender')}
        />
        {role === 'trainer' && (
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <TextField
                label="City"
                autoComplete="address-level2"
                list={cityListId}
                hint="Trainees filter the list by city. Pick one or type yours."
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
        )}
        <p id={`${role}-signup-private`} className="text-sm text-subtle">
          {role === 'trainer'
            ? 'Age, height and weight fill in your BMI and weight tracking. They are never shown on your public profile.'
            : 'Age, height and weight fill in your BMI and weight tracking. They are never shown publicly.'}
        </p>
        <div className="grid gap-5 sm:grid-cols-3">
          <TextField
            label="Age"
            type="number"
            inputMode="numeric"
            min={18}
            max={100}
            error={errorFor('age')}
            {...register('age')}
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
          <TextField
            label="Weight"
            type="number"
            inputMode="numeric"
            hint="In kilograms"
            suffix={<InputUnit>kg</InputUnit>}
            error={errorFor('weight')}
            {...register('weight')}
          />
        </div>
        {role === 'trainer' && (
          <TextField
            label="Price"
            type="number"
            inputMode="numeric"
            min={100}
            hint="Per session, in US dollars"
            prefix="$"
            error={errorFor('price')}
            {...register('price')}
          />
        )}
        <Button type="submit" size="lg" className="w-full" isLoading={registerAccount.isPending} disabled={isDone}>
          Sign Up
        </Button>
      </form>
    </>
  );
}

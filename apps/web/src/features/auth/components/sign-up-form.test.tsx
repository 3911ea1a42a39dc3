import { screen, waitFor } from '@testing-library/react';
import { MSG } from '@spotter/shared';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { SignUpForm } from './sign-up-form';

const renderForm = (role: 'user' | 'trainer' = 'user') =>
  renderWithProviders(<SignUpForm role={role} />, { route: role === 'user' ? '/users/register' : '/trainers/register' });

describe('SignUpForm validation timing', () => {
  it('shows no error while a field has not been left yet', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('First Name'), 'A');
    expect(screen.queryByText(MSG.nameMin)).not.toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).not.toHaveAttribute('aria-invalid');
  });

  it('shows the spec message when the field is left, then updates on every change', async () => {
    const { user } = renderForm();
    const firstName = screen.getByLabelText('First Name');
    await user.type(firstName, 'A');
    await user.tab();

    expect(await screen.findByText('Min 2 characters')).toBeInTheDocument();
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect(firstName).toHaveAccessibleDescription('Min 2 characters');
    // Other fields were not touched: still quiet.
    expect(screen.queryByText(MSG.required)).not.toBeInTheDocument();

    await user.type(firstName, 'b');
    await waitFor(() => expect(screen.queryByText('Min 2 characters')).not.toBeInTheDocument());
    expect(firstName).not.toHaveAttribute('aria-invalid');

    await user.clear(firstName);
    await waitFor(() => expect(firstName).toHaveAccessibleDescription(MSG.required));
  });

  it('checks that the passwords match as soon as both are typed', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Password'), 'Abcd1234');
    await user.type(screen.getByLabelText('Confirm Password'), 'Abcd9999');
    await user.tab();
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
  });

  it('on submit shows the message of every required field and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText('Please enter your Email')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    // First Name, Last Name, Phone, Age, Height and Weight.
    expect(screen.getAllByText('Required')).toHaveLength(6);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('the trainer form also requires a price and a city, with Egypt as the country', async () => {
    const { user } = renderForm('trainer');
    expect(screen.getByLabelText('Country')).toHaveValue('Egypt');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findAllByText('Required')).toHaveLength(8);
    expect(screen.getByLabelText('Price')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('City')).toHaveAttribute('aria-invalid', 'true');
  });

  it("offers the list's cities as suggestions and says age, height and weight stay private", () => {
    renderForm('trainer');
    const city = screen.getByLabelText('City');
    const list = document.getElementById(city.getAttribute('list') ?? '');
    expect(list?.tagName).toBe('DATALIST');
    expect(Array.from(list?.querySelectorAll('option') ?? []).map((o) => o.value)).toContain('Alexandria');
    expect(screen.getByText(/never shown on your public profile/)).toBeInTheDocument();
  });

  it('the user form asks for no city', () => {
    renderForm('user');
    expect(screen.queryByLabelText('City')).not.toBeInTheDocument();
  });
});

async function fillValidUser(user: ReturnType<typeof renderForm>['user']) {
  await user.type(screen.getByLabelText('First Name'), 'Mona');
  await user.type(screen.getByLabelText('Last Name'), 'Adel');
  await user.type(screen.getByLabelText('Email'), 'Mona@Example.com');
  await user.type(screen.getByLabelText('Password'), 'Abcd1234');
  await user.type(screen.getByLabelText('Confirm Password'), 'Abcd1234');
  await user.type(screen.getByLabelText('Phone'), '01012345678');
  await user.click(screen.getByLabelText('Female'));
  await user.type(screen.getByLabelText('Age'), '30');
  await user.type(screen.getByLabelText('Height'), '170');
  await user.type(screen.getByLabelText('Weight'), '65');
}

describe('SignUpForm submission', () => {
  it('sends numbers and shows the green banner with the server message on 201', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Account created! Check your e-mail.' }, 201));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();
    expect(screen.getByLabelText('Male')).toBeChecked();

    await fillValidUser(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent('Account created! Check your e-mail.');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/users/register');
    expect(JSON.parse(init.body as string)).toMatchObject({
      email: 'mona@example.com',
      gender: 'female',
      age: 30,
      height: 170,
      weight: 65,
    });
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('shows the red banner and the field errors of a 409', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { message: 'An account with this email already exists', statusCode: 409, errors: { email: 'Already registered' } },
          409,
        ),
      ),
    );
    const { user } = renderForm();
    await fillValidUser(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Already registered');
  });
});

describe('trainer sign-up submission', () => {
  it('sends the typed city and the default country', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Account created! Check your e-mail.' }, 201));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm('trainer');
    await fillValidUser(user);
    await user.type(screen.getByLabelText('Price'), '250');
    await user.type(screen.getByLabelText('City'), 'Mansoura');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Account created!');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trainers/register');
    expect(JSON.parse(init.body as string)).toMatchObject({ price: 250, city: 'Mansoura', country: 'Egypt' });
  });
});

describe('password show/hide toggle', () => {
  it('reveals and hides both password fields', async () => {
    const { user } = renderForm();
    const password = screen.getByLabelText('Password');
    const confirm = screen.getByLabelText('Confirm Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(confirm).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(confirm).toHaveAttribute('type', 'text');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
    expect(confirm).toHaveAttribute('type', 'password');
    expect(screen.queryByRole('button', { name: 'Hide password' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveAttribute(
      'aria-controls',
      `${password.id} ${confirm.id}`,
    );
  });
});

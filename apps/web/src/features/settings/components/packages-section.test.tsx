import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_MSG, type TTrainerPackage } from '@spotter/shared';
import { callsOf, makeTrainer, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { PackagesSection } from './packages-section';

const logInAsTrainer = () => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'trainer');
};
afterEach(() => localStorage.clear());

const five: TTrainerPackage = { _id: 'p1', sessions: 5, price: 180, perSession: 36, validityMonths: 3 };

/** GET /api/trainerData/t1: the trainer's public profile with these packages. */
const serveProfile =
  (packages: TTrainerPackage[] = []) =>
  (url: URL) =>
    url.pathname === '/api/trainerData/t1' ? jsonResponse({ trainerData: makeTrainer({ price: 40, packages }) }) : undefined;

const renderSection = (sessionPrice = 40) =>
  renderWithProviders(<PackagesSection trainerId="t1" sessionPrice={sessionPrice} />, { route: '/trainer/settings' });

describe('PackagesSection', () => {
  it('starts from the saved packages with the price of a session and the saving, in honest words', async () => {
    logInAsTrainer();
    stubApi(serveProfile([five]));
    renderSection();
    const section = screen.getByRole('region', { name: 'Packages' });
    expect(section).toHaveTextContent('Prices you change later do not change packages already bought.');
    const row = await within(section).findByRole('group', { name: 'Package 1' });
    expect(within(row).getByLabelText('Sessions')).toHaveValue(5);
    expect(within(row).getByLabelText('Total price')).toHaveValue(180);
    expect(within(row).getByLabelText('Valid for')).toHaveValue('3');
    expect(row).toHaveTextContent('$36 a session, saves $20');
    expectLabelled(row);
  });

  it('says when there are none yet, adds up to 3 rows, removes one, and saves what the rows say', async () => {
    logInAsTrainer();
    let sent: unknown;
    let saved: TTrainerPackage[] = [];
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/trainer/packages' && init.method === 'PUT') {
        sent = JSON.parse(init.body as string);
        saved = [five, { _id: 'p2', sessions: 10, price: 350, perSession: 35, validityMonths: null }];
        return jsonResponse({ message: PACKAGE_MSG.saved, packages: saved });
      }
      return serveProfile(saved)(url);
    });
    const { user } = renderSection();

    expect(await screen.findByText(/You sell no packages yet/)).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add a package' });
    await user.click(add);
    await user.click(add);
    await user.click(add);
    expect(screen.getAllByRole('group', { name: /^Package \d$/ })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Add a package' })).not.toBeInTheDocument();
    expect(screen.getByText(`${PACKAGE_MSG.tooMany}.`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove package 3' }));
    expect(screen.getAllByRole('group', { name: /^Package \d$/ })).toHaveLength(2);

    const first = screen.getByRole('group', { name: 'Package 1' });
    await user.type(within(first).getByLabelText('Total price'), '180');
    expect(first).toHaveTextContent('$36 a session, saves $20');
    const second = screen.getByRole('group', { name: 'Package 2' });
    await user.clear(within(second).getByLabelText('Sessions'));
    await user.type(within(second).getByLabelText('Sessions'), '10');
    await user.type(within(second).getByLabelText('Total price'), '350');
    await user.selectOptions(within(second).getByLabelText('Valid for'), 'No end date');
    expect(second).toHaveTextContent('$35 a session, saves $50');

    await user.click(screen.getByRole('button', { name: 'Save packages' }));
    expect(await findToast(PACKAGE_MSG.saved)).toHaveAttribute('data-type', 'success');
    expect(sent).toEqual({
      packages: [
        { sessions: 5, price: 180, validityMonths: 3 },
        { sessions: 10, price: 350, validityMonths: null },
      ],
    });
    expect(callsOf(fetchMock)).toContain('PUT /api/trainer/packages');
  });

  it('checks the rows before sending: a missing total, and a package no cheaper than its sessions one by one', async () => {
    logInAsTrainer();
    const fetchMock = stubApi(serveProfile());
    const { user } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add a package' }));
    await user.click(screen.getByRole('button', { name: 'Save packages' }));
    const price = screen.getByLabelText('Total price');
    expect(await screen.findByText(PACKAGE_MSG.price)).toBeInTheDocument();
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(price).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted packages.');

    await user.type(price, '200');
    expect(screen.getByRole('group', { name: 'Package 1' })).toHaveTextContent('no cheaper than $40 a session one by one');
    await user.click(screen.getByRole('button', { name: 'Save packages' }));
    expect(await screen.findByText(PACKAGE_MSG.notCheaper(200))).toBeInTheDocument();
    expect(callsOf(fetchMock)).not.toContain('PUT /api/trainer/packages');
  });

  it('shows the server’s field messages beside their row and its message above Save; a 409 too', async () => {
    logInAsTrainer();
    let puts = 0;
    stubApi(serveProfile([five]), (url, init) => {
      if (url.pathname !== '/api/trainer/packages' || init.method !== 'PUT') return undefined;
      puts += 1;
      return puts === 1
        ? jsonResponse(
            {
              message: 'Validation failed',
              statusCode: 400,
              code: 'VALIDATION_FAILED',
              errors: { 'packages.0.price': 'A package must cost less than its sessions one by one ($200)' },
            },
            400,
          )
        : jsonResponse({ message: PACKAGE_MSG.setPriceFirst, statusCode: 409, code: 'CONFLICT' }, 409);
    });
    const { user } = renderSection();
    const row = await screen.findByRole('group', { name: 'Package 1' });
    await user.click(screen.getByRole('button', { name: 'Save packages' }));
    expect(await within(row).findByText('A package must cost less than its sessions one by one ($200)')).toBeInTheDocument();
    expect(within(row).getByLabelText('Total price')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Validation failed');

    await user.click(screen.getByRole('button', { name: 'Save packages' }));
    expect(await screen.findByText(PACKAGE_MSG.setPriceFirst)).toBeInTheDocument();
    expect(within(row).queryByText(/must cost less/)).not.toBeInTheDocument();
  });

  it('asks for a price first when the trainer has none', async () => {
    logInAsTrainer();
    stubApi(serveProfile());
    renderSection(0);
    expect(await screen.findByText(`${PACKAGE_MSG.setPriceFirst}.`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save packages' })).not.toBeInTheDocument();
  });

  it('shows a failed load with Retry', async () => {
    logInAsTrainer();
    let calls = 0;
    stubApi((url) => {
      if (url.pathname !== '/api/trainerData/t1') return undefined;
      calls += 1;
      return calls === 1 ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503) : serveProfile([five])(url);
    });
    const { user } = renderSection();
    expect(screen.getByText('Loading your packages…')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your packages');
    expect(alert).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('group', { name: 'Package 1' })).toBeInTheDocument();
  });
});

/** Every control of a row is labelled for a screen reader, and Remove names its row. */
function expectLabelled(row: HTMLElement) {
  for (const name of ['Sessions', 'Total price', 'Valid for']) expect(within(row).getByLabelText(name)).toBeInTheDocument();
  expect(within(row).getByRole('button', { name: 'Remove package 1' })).toBeInTheDocument();
  expect(within(row).getByRole('option', { name: 'No end date' })).toBeInTheDocument();
}

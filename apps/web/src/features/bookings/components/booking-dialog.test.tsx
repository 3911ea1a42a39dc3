import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { BookingDialog } from './booking-dialog';

// The visitor is in Tokyo (UTC+9): 13:00Z on 7 January is 22:00 Monday there, 15:00Z is 00:00 Tuesday.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});

const MON_22 = '2030-01-07T13:00:00.000Z';
const TUE_00 = '2030-01-07T15:00:00.000Z';
const TUE_01 = '2030-01-07T16:00:00.000Z';

const trainer = { _id: 't1', firstName: 'Nadia', lastName: 'Samir', price: 150 };

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: TUE_01,
  endsAt: '2030-01-07T17:00:00.000Z',
  status: 'pending',
  price: 150,
  currency: 'USD',
  holdExpiresAt: '2030-01-01T10:10:00.000Z',
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: true,
  isRefundable: false,
  cancellableUntil: null,
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  ...overrides,
});

const completed = (booking: TBooking) => ({
  id: 'ORDER-1',
  status: 'COMPLETED',
  purchase_units: [{ payments: { captures: [{ id: 'CAPTURE-1', status: 'COMPLETED' }] } }],
  booking: { ...booking, status: 'confirmed', holdExpiresAt: null },
});

const config = (url: URL) =>
  url.pathname === '/api/payments/config'
    ? jsonResponse({ provider: 'demo', currency: 'USD', label: 'Demo payment: no money moves' })
    : undefined;

const renderDialog = () => renderWithProviders(<BookingDialog trainer={trainer} isOpen onOpenChange={() => undefined} />);

async function chooseAndContinue(user: ReturnType<typeof renderDialog>['user'], day: string, time: string) {
  const group = await screen.findByRole('group', { name: day });
  await user.click(within(group).getByRole('button', { name: time }));
  await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
}

describe('BookingDialog', () => {
  it("groups the free slots by the visitor's local day and shows the price and the total", async () => {
    stubApi((url) =>
      url.pathname === '/api/trainers/t1/slots'
        ? jsonResponse({ slots: [TUE_01, MON_22, TUE_00], timeZone: 'Africa/Cairo' })
        : undefined,
    );
    const { user } = renderDialog();

    const monday = await screen.findByRole('group', { name: 'Monday 7 January' });
    expect(
      within(monday)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['22:00']);
    const tuesday = screen.getByRole('group', { name: 'Tuesday 8 January' });
    expect(
      within(tuesday)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['00:00', '01:00']);
    expect(screen.getByText('$150 per one-hour session')).toBeInTheDocument();
    expect(screen.getByText('Total:').nextSibling).toHaveTextContent('$0');
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeDisabled();

    await user.click(within(tuesday).getByRole('button', { name: '00:00' }));
    expect(within(tuesday).getByRole('button', { name: '00:00' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Total:').nextSibling).toHaveTextContent('$150');
  });

  it('a slot just taken (409) says so, refreshes the slots, and another slot goes on to a paid booking', async () => {
    let slotCalls = 0;
    let captured = '';
    const fetchMock = stubApi(config, (url, init) => {
      if (url.pathname === '/api/trainers/t1/slots') {
        slotCalls += 1;
        return jsonResponse({ slots: slotCalls === 1 ? [MON_22, TUE_00, TUE_01] : [MON_22, TUE_01], timeZone: 'Africa/Cairo' });
      }
      if (url.pathname === '/api/bookings' && init.method === 'POST') {
        const { startsAt } = JSON.parse(init.body as string) as { startsAt: string };
        return startsAt === TUE_00
          ? jsonResponse({ message: 'This slot was just booked', statusCode: 409 }, 409)
          : jsonResponse({ booking: makeBooking({ startsAt }) }, 201);
      }
      if (url.pathname === '/api/orders' && init.method === 'POST') {
        expect(JSON.parse(init.body as string)).toEqual({ bookingId: 'b1' });
        return jsonResponse({ id: 'ORDER-1', status: 'CREATED', amount: { currency_code: 'USD', value: '150.00' } });
      }
      if (url.pathname === '/api/orders/ORDER-1/capture' && init.method === 'POST') {
        captured = 'ORDER-1';
        return jsonResponse(completed(makeBooking()));
      }
      return undefined;
    });
    const { user } = renderDialog();

    await chooseAndContinue(user, 'Tuesday 8 January', '00:00');
    expect(await screen.findByRole('alert')).toHaveTextContent('This slot was just booked');
    const tuesday = screen.getByRole('group', { name: 'Tuesday 8 January' });
    await waitFor(() => expect(within(tuesday).queryByRole('button', { name: '00:00' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeDisabled();

    await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
    expect(await screen.findByText('Demo payment: no money moves')).toBeInTheDocument();
    expect(screen.getByText('Nadia Samir')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay $150' }));

    // the modal hides the toaster from the accessibility tree (the dialog's own status says it), so by text
    const toast = (await screen.findByText('Transaction COMPLETED: CAPTURE-1')).closest('[data-sonner-toast]');
    expect(toast).toHaveAttribute('data-type', 'success');
    expect(await screen.findByText('You are booked!')).toBeInTheDocument();
    expect(captured).toBe('ORDER-1');
    expect(screen.getByRole('link', { name: 'See my sessions' })).toHaveAttribute('href', '/user/profile');
    expect(callsOf(fetchMock).filter((call) => call === 'GET /api/trainers/t1/slots').length).toBeGreaterThanOrEqual(2);
  });

  it('a declined card restarts the payment; other failures show the spec messages with the error', async () => {
    let captures = 0;
    let orders = 0;
    stubApi(config, (url, init) => {
      if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
      if (url.pathname === '/api/bookings' && init.method === 'POST') return jsonResponse({ booking: makeBooking() }, 201);
      if (url.pathname === '/api/orders') {
        orders += 1;
        if (orders === 1) return jsonResponse({ message: 'The payment provider is not answering.', statusCode: 502 }, 502);
        return jsonResponse({ id: 'ORDER-1', status: 'CREATED', amount: { currency_code: 'USD', value: '150.00' } });
      }
      if (url.pathname === '/api/orders/ORDER-1/capture') {
        captures += 1;
        if (captures === 1) {
          return jsonResponse(
            {
              message: 'Instrument declined',
              statusCode: 422,
              details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The card was refused' }],
              debug_id: 'dbg1',
            },
            422,
          );
        }
        if (captures === 2) {
          return jsonResponse(
            {
              message: 'Unprocessable',
              statusCode: 422,
              details: [{ issue: 'TRANSACTION_REFUSED', description: 'Refused' }],
              debug_id: 'dbg2',
            },
            422,
          );
        }
        return jsonResponse(completed(makeBooking()));
      }
      return undefined;
    });
    const { user } = renderDialog();
    await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
    const pay = await screen.findByRole('button', { name: 'Pay $150' });

    await user.click(pay);
    const orderFailure = await screen.findByRole('alert');
    expect(orderFailure).toHaveTextContent('Could not initiate PayPal Checkout...');
    expect(orderFailure).toHaveTextContent('The payment provider is not answering.');

    await user.click(pay);
    expect(await screen.findByText('Your card was declined. Try again, or use another card.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(pay);
    const captureFailure = await screen.findByRole('alert');
    expect(captureFailure).toHaveTextContent('Sorry, your transaction could not be processed...');
    expect(captureFailure).toHaveTextContent('TRANSACTION_REFUSED Refused (dbg2)');

    await user.click(pay);
    expect(await screen.findByText('You are booked!')).toBeInTheDocument();
  });

  it('releases an unpaid hold when the visitor picks another time', async () => {
    const fetchMock = stubApi(config, (url, init) => {
      if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
      if (url.pathname === '/api/bookings' && init.method === 'POST') return jsonResponse({ booking: makeBooking() }, 201);
      if (url.pathname === '/api/bookings/b1/cancel')
        return jsonResponse({ message: 'Your booking is cancelled', booking: makeBooking({ status: 'cancelled' }) });
      return undefined;
    });
    const { user } = renderDialog();
    await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
    await user.click(await screen.findByRole('button', { name: 'Choose another time' }));

    expect(await screen.findByRole('group', { name: 'Tuesday 8 January' })).toBeInTheDocument();
    await waitFor(() => expect(callsOf(fetchMock)).toContain('POST /api/bookings/b1/cancel'));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDateTimeIn, PAYMENT_MSG, type TBooking } from '@spotter/shared';
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
  canReschedule: false,
  disputableUntil: null,
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  paidFromBalance: false,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
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
  await user.click(within(group).getByRole('radio', { name: time }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
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
        .getAllByRole('radio')
        .map((b) => b.textContent),
    ).toEqual(['22:00']);
    const tuesday = screen.getByRole('group', { name: 'Tuesday 8 January' });
    expect(
      within(tuesday)
        .getAllByRole('radio')
        .map((b) => b.textContent),
    ).toEqual(['00:00', '01:00']);
    expect(screen.getByText('$150 per one-hour session')).toBeInTheDocument();
    expect(screen.getByText('Total:').nextSibling).toHaveTextContent('$0');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    await user.click(within(tuesday).getByRole('radio', { name: '00:00' }));
    expect(within(tuesday).getByRole('radio', { name: '00:00' })).toHaveAttribute('aria-checked', 'true');
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
    await waitFor(() => expect(within(tuesday).queryByRole('radio', { name: '00:00' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
    expect(await screen.findByText('Demo payment: no money moves')).toBeInTheDocument();
    expect(screen.getByText('Nadia Samir')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay $150' }));

    // the modal hides the toaster from the accessibility tree (the dialog's own status says it), so by text
    // a plain-language confirmation, not the provider's 'Transaction COMPLETED: CAPTURE-1'
    const toast = (await screen.findByText('Paid $150 to Nadia Samir for Tue 8 Jan, 01:00')).closest('[data-sonner-toast]');
    expect(toast).toHaveAttribute('data-type', 'success');
    expect(await screen.findByText('You are booked!')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Paid $150 to Nadia Samir for Tue 8 Jan, 01:00 (Tokyo time).');
    expect(screen.queryByText(/Transaction COMPLETED/)).not.toBeInTheDocument();
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

  describe('policy, zone and keyboard', () => {
    afterEach(() => localStorage.clear());

    const HOUR = 60 * 60_000;
    /** A slot start on the hour, about `hours` from now. */
    const slotIn = (hours: number) => new Date(Math.ceil(Date.now() / HOUR) * HOUR + hours * HOUR).toISOString();
    const slotsRoute = (slots: string[]) => (url: URL) =>
      url.pathname === '/api/trainers/t1/slots' ? jsonResponse({ slots, timeZone: 'Africa/Cairo' }) : undefined;

    it('states the policy before paying: a slot 2 hours away is not refundable', async () => {
      const soon = slotIn(2);
      stubApi(config, slotsRoute([soon]), (url, init) =>
        url.pathname === '/api/bookings' && init.method === 'POST'
          ? jsonResponse(
              { booking: makeBooking({ startsAt: soon, endsAt: new Date(Date.parse(soon) + HOUR).toISOString() }) },
              201,
            )
          : undefined,
      );
      const { user } = renderDialog();

      const [slot] = await screen.findAllByRole('radio');
      expect(screen.queryByTestId('policy')).not.toBeInTheDocument();
      await user.click(slot);
      expect(screen.getByTestId('policy')).toHaveTextContent('Starts in less than 24 hours: not refundable');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByRole('button', { name: 'Pay $150' });
      expect(screen.getByTestId('policy')).toHaveTextContent('Starts in less than 24 hours: not refundable');
    });

    it('states the policy before paying and in the confirmation: a slot 3 days away is free to cancel for 2 days', async () => {
      const later = slotIn(72);
      const booking = makeBooking({
        startsAt: later,
        endsAt: new Date(Date.parse(later) + HOUR).toISOString(),
        location: { kind: 'online', text: 'https://meet.example.com/nadia' },
      });
      stubApi(config, slotsRoute([later]), (url, init) => {
        if (url.pathname === '/api/bookings' && init.method === 'POST') return jsonResponse({ booking }, 201);
        if (url.pathname === '/api/orders') return jsonResponse({ id: 'ORDER-1', status: 'CREATED' });
        if (url.pathname === '/api/orders/ORDER-1/capture') return jsonResponse(completed(booking));
        return undefined;
      });
      const { user } = renderDialog();
      const expected = `Free cancellation until ${formatDateTimeIn(new Date(Date.parse(later) - 24 * HOUR), 'Asia/Tokyo')} (Tokyo time)`;

      await user.click((await screen.findAllByRole('radio'))[0]);
      expect(screen.getByTestId('policy')).toHaveTextContent(expected);
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      const pay = await screen.findByRole('button', { name: 'Pay $150' });
      expect(screen.getByTestId('policy')).toHaveTextContent(expected);
      // the place, and the meeting link only once paid
      expect(screen.getByText(/Online meeting/)).toHaveTextContent('Online meeting (the link is shown once you have paid)');
      expect(screen.queryByRole('link', { name: 'Online meeting' })).not.toBeInTheDocument();

      await user.click(pay);
      expect(await screen.findByText('You are booked!')).toBeInTheDocument();
      expect(screen.getByTestId('policy')).toHaveTextContent(expected);
      expect(screen.getByRole('link', { name: 'Online meeting' })).toHaveAttribute('href', 'https://meet.example.com/nadia');
      const google = screen.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href') ?? '';
      expect(google).toMatch(/^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=/);
      const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace('.000', '');
      expect(google).toContain(`&dates=${stamp(later)}/${stamp(booking.endsAt)}&`);
      expect(google).toContain(`&location=${encodeURIComponent('https://meet.example.com/nadia')}`);
      expect(screen.getByRole('link', { name: 'Download .ics' })).toHaveAttribute('download', 'session.ics');
    });

    it("names the zone of the times and switches between the visitor's and the trainer's", async () => {
      stubApi(slotsRoute([TUE_01, MON_22, TUE_00]));
      const { user } = renderDialog();

      await screen.findByRole('group', { name: 'Monday 7 January' });
      expect(screen.getByText(/^Times in/)).toHaveTextContent('Times in Tokyo time, GMT+9');
      await user.click(screen.getByRole('button', { name: 'Show in Cairo time (the trainer’s)' }));

      expect(screen.getByText(/^Times in/)).toHaveTextContent('Times in Cairo time, GMT+2');
      const monday = screen.getByRole('group', { name: 'Monday 7 January' });
      expect(
        within(monday)
          .getAllByRole('radio')
          .map((b) => b.textContent),
      ).toEqual(['15:00', '17:00', '18:00']);
      expect(screen.queryByRole('group', { name: 'Tuesday 8 January' })).not.toBeInTheDocument();
      await user.click(within(monday).getByRole('radio', { name: '18:00' }));
      expect(screen.getByText('Mon, 7 Jan 2030, 18:00 (Cairo time)')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Show in your time (Tokyo)' }));
      expect(screen.getByText(/^Times in/)).toHaveTextContent('Times in Tokyo time, GMT+9');
      expect(screen.getByRole('radio', { name: '01:00' })).toHaveAttribute('aria-checked', 'true');
    });

    it('the times are one radio group: one Tab stop, arrow keys move and choose, Continue is the next Tab', async () => {
      stubApi(slotsRoute([MON_22, TUE_00, TUE_01]));
      const { user } = renderDialog();
      const group = await screen.findByRole('radiogroup', { name: 'Free times' });
      const [first, second, third] = within(group).getAllByRole('radio');
      expect(
        within(group)
          .getAllByRole('radio')
          .map((r) => r.tabIndex),
      ).toEqual([0, -1, -1]);

      first.focus();
      await user.keyboard('{ArrowRight}');
      expect(second).toHaveFocus();
      expect(second).toHaveAttribute('aria-checked', 'true');
      await user.keyboard('{ArrowDown}');
      expect(third).toHaveFocus();
      await user.keyboard('{ArrowRight}');
      expect(first).toHaveFocus();
      await user.keyboard('{ArrowLeft}');
      expect(third).toHaveFocus();
      expect(
        within(group)
          .getAllByRole('radio')
          .map((r) => r.tabIndex),
      ).toEqual([-1, -1, 0]);
      expect(first).toHaveAttribute('aria-checked', 'false');

      await user.tab();
      expect(screen.getByRole('button', { name: 'Continue' })).toHaveFocus();
      await user.tab({ shift: true });
      expect(third).toHaveFocus();
    });

    function Opener({ onMessage }: { onMessage?: () => void }) {
      const [isOpen, setIsOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setIsOpen(true)}>
            Book now!
          </button>
          <BookingDialog trainer={trainer} isOpen={isOpen} onOpenChange={setIsOpen} onMessage={onMessage} />
        </>
      );
    }

    it('returns focus to what opened it when it closes', async () => {
      stubApi(slotsRoute([MON_22]));
      const { user } = renderWithProviders(<Opener />);
      const opener = screen.getByRole('button', { name: 'Book now!' });

      await user.click(opener);
      await screen.findByRole('radio', { name: '22:00' });
      expect(opener).not.toHaveFocus();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(opener).toHaveFocus());
    });

    it("with no free time, offers 'Message Nadia' instead of a pay button at $0", async () => {
      stubApi(slotsRoute([]));
      const onMessage = vi.fn();
      const { user } = renderWithProviders(<Opener onMessage={onMessage} />);
      await user.click(screen.getByRole('button', { name: 'Book now!' }));

      expect(await screen.findByText('No free times in the next 14 days')).toBeInTheDocument();
      expect(screen.queryByText('$0')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Continue|Pay/ })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Message Nadia' }));
      expect(onMessage).toHaveBeenCalledOnce();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it("offers a person's own unpaid hold as 'Continue to payment'", async () => {
      localStorage.setItem('token', 'header.payload.signature');
      localStorage.setItem('userType', 'user');
      const hold = makeBooking({ _id: 'b9', holdExpiresAt: new Date(Date.now() + 5 * 60_000).toISOString() });
      const lapsed = makeBooking({ _id: 'b8', holdExpiresAt: new Date(Date.now() - 60_000).toISOString() });
      stubApi(config, slotsRoute([MON_22]), (url, init) =>
        url.pathname === '/api/bookings' && (init.method ?? 'GET') === 'GET'
          ? jsonResponse({ bookings: [lapsed, hold] })
          : undefined,
      );
      const { user } = renderDialog();

      await user.click(await screen.findByRole('button', { name: 'Continue to payment' }));
      expect(await screen.findByRole('button', { name: 'Pay $150' })).toBeInTheDocument();
      expect(screen.getByText('Tue, 8 Jan 2030, 01:00 (1 hour, Tokyo time, GMT+9)')).toBeInTheDocument();
    });
  });

  describe('a payment that ends without a booking', () => {
    function Harness() {
      const [isOpen, setIsOpen] = useState(true);
      return isOpen ? <BookingDialog trainer={trainer} isOpen onOpenChange={setIsOpen} /> : <p>Dialog closed</p>;
    }

    /** The dialog up to 'Pay', with the capture answering `captured`. */
    const serveCapture = (captured: () => Response) =>
      stubApi(config, (url, init) => {
        if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
        if (url.pathname === '/api/bookings' && init.method === 'POST') return jsonResponse({ booking: makeBooking() }, 201);
        if (url.pathname === '/api/orders') return jsonResponse({ id: 'ORDER-1', status: 'CREATED' });
        if (url.pathname === '/api/orders/ORDER-1/capture') return captured();
        if (url.pathname === '/api/bookings/b1/cancel')
          return jsonResponse({ message: 'Your booking is cancelled', booking: makeBooking({ status: 'cancelled' }) });
        return undefined;
      });

    it('a capture the provider did not answer in time shows the server’s message and only Close, and keeps the hold', async () => {
      const fetchMock = serveCapture(() =>
        jsonResponse({ message: PAYMENT_MSG.captureUnknown, statusCode: 504, code: 'PROVIDER_TIMEOUT' }, 504),
      );
      const { user } = renderWithProviders(<Harness />);
      await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
      await user.click(await screen.findByRole('button', { name: 'Pay $150' }));

      const dialog = screen.getByRole('dialog');
      const message = await within(dialog).findByText(PAYMENT_MSG.captureUnknown);
      expect(message.closest('[data-tone]')).toHaveTextContent(`Payment not confirmed yet${PAYMENT_MSG.captureUnknown}`);
      await waitFor(() => expect(message.closest('[tabindex="-1"]')).toHaveFocus());
      expect(within(dialog).queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: 'Choose another time' })).not.toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: 'Choose a time' })).not.toBeInTheDocument();
      expect(within(dialog).queryByText('Sorry, your transaction could not be processed...')).not.toBeInTheDocument();

      // the dialog's own × comes first; the message's Close is the next Tab
      await user.tab();
      expect(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)).toHaveFocus();
      await user.keyboard('{Enter}');
      expect(await screen.findByText('Dialog closed')).toBeInTheDocument();
      // the payment may have gone through: the hold stays until the server knows
      expect(callsOf(fetchMock)).not.toContain('POST /api/bookings/b1/cancel');
    });

    it('an order the provider did not answer in time charged nothing: the failure is shown and Pay stays', async () => {
      const fetchMock = stubApi(config, (url, init) => {
        if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
        if (url.pathname === '/api/bookings' && init.method === 'POST') return jsonResponse({ booking: makeBooking() }, 201);
        if (url.pathname === '/api/orders')
          return jsonResponse({ message: PAYMENT_MSG.providerTimeout, statusCode: 504, code: 'PROVIDER_TIMEOUT' }, 504);
        return undefined;
      });
      const { user } = renderWithProviders(<Harness />);
      await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
      await user.click(await screen.findByRole('button', { name: 'Pay $150' }));

      expect(await screen.findByText('Could not initiate PayPal Checkout...')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Pay $150' })).toBeEnabled();
      expect(callsOf(fetchMock)).not.toContain('POST /api/orders/ORDER-1/capture');
    });

    it('a capture the provider failed (502: the money may have moved) ends the checkout like a timeout', async () => {
      serveCapture(() =>
        jsonResponse({ message: PAYMENT_MSG.captureUnknown, statusCode: 502, code: 'PROVIDER_UNAVAILABLE' }, 502),
      );
      const { user } = renderWithProviders(<Harness />);
      await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
      await user.click(await screen.findByRole('button', { name: 'Pay $150' }));
      expect(await screen.findByText(PAYMENT_MSG.captureUnknown)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    });

    it('a capture PayPal answers PENDING says it is still processing, with no way to pay again', async () => {
      serveCapture(() =>
        jsonResponse({
          id: 'ORDER-1',
          status: 'COMPLETED',
          purchase_units: [{ reference_id: 'b1', payments: { captures: [{ id: 'CAP-1', status: 'PENDING' }] } }],
        }),
      );
      const { user } = renderWithProviders(<Harness />);
      await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
      await user.click(await screen.findByRole('button', { name: 'Pay $150' }));
      expect(await screen.findByText(/PayPal is still processing your payment/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
      expect(screen.queryByText('Sorry, your transaction could not be processed...')).not.toBeInTheDocument();
    });

    it('a capture of another amount (refunded by the server) shows its message; a new try starts from a fresh hold', async () => {
      const fetchMock = serveCapture(() =>
        jsonResponse({ message: PAYMENT_MSG.amountMismatch, statusCode: 422, code: 'PAYMENT_MISMATCH' }, 422),
      );
      const { user } = renderWithProviders(<Harness />);
      await chooseAndContinue(user, 'Tuesday 8 January', '01:00');
      await user.click(await screen.findByRole('button', { name: 'Pay $150' }));

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(`Not booked${PAYMENT_MSG.amountMismatch}`);
      expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
      expect(screen.getAllByRole('button', { name: 'Close' })).toHaveLength(2);

      await user.click(screen.getByRole('button', { name: 'Choose a time' }));
      expect(await screen.findByRole('group', { name: 'Tuesday 8 January' })).toBeInTheDocument();
      await waitFor(() => expect(callsOf(fetchMock)).toContain('POST /api/bookings/b1/cancel'));
    });
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG, formatDateTimeIn, type TBooking } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { RescheduleDialog } from './reschedule-dialog';

// The visitor is in Tokyo (UTC+9); the trainer is in Cairo (UTC+2).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});

const HOUR = 60 * 60_000;
// 19:00 Monday 4 March in Tokyo
const NOW_AT = '2030-03-04T10:00:00.000Z';
// 10:00 and 11:00 Tuesday 5 March, 10:00 Wednesday 6 March in Tokyo
const TUE_10 = '2030-03-05T01:00:00.000Z';
const TUE_11 = '2030-03-05T02:00:00.000Z';
const WED_10 = '2030-03-06T01:00:00.000Z';

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: NOW_AT,
  endsAt: '2030-03-04T11:00:00.000Z',
  status: 'confirmed',
  price: 150,
  currency: 'USD',
  holdExpiresAt: null,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: true,
  isRefundable: true,
  cancellableUntil: '2030-03-03T10:00:00.000Z',
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  canReschedule: true,
  disputableUntil: null,
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  paidFromBalance: false,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
  ...overrides,
});

const slotsRoute = (slots: () => string[]) => (url: URL) =>
  url.pathname === '/api/trainers/t1/slots' ? jsonResponse({ slots: slots(), timeZone: 'Africa/Cairo' }) : undefined;

const renderDialog = (booking = makeBooking()) =>
  renderWithProviders(<RescheduleDialog booking={booking} timeZone="Asia/Tokyo" />);

const openDialog = async (user: ReturnType<typeof renderDialog>['user']) => {
  await user.click(screen.getByRole('button', { name: /^Move the session with Nadia Samir/ }));
  return screen.findByRole('dialog', { name: 'Move your session with Nadia' });
};

describe('RescheduleDialog', () => {
  it("shows the session's time and the trainer's other free times; 'Move session' posts the new time and toasts the answer", async () => {
    let body: unknown;
    const fetchMock = stubApi(
      slotsRoute(() => [TUE_10, NOW_AT, TUE_11, WED_10]),
      (url, init) => {
        if (url.pathname === '/api/bookings/b1/reschedule' && init.method === 'POST') {
          body = JSON.parse(init.body as string);
          return jsonResponse({
            message: 'Your session is moved to Tue 5 Mar, 03:00 (Cairo time, GMT+2)',
            booking: makeBooking({ startsAt: TUE_11, endsAt: '2030-03-05T03:00:00.000Z' }),
          });
        }
        if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [] });
        if (url.pathname === '/api/payments') return jsonResponse({});
        return undefined;
      },
    );
    const { user } = renderDialog();
    const opener = screen.getByRole('button', { name: /^Move the session with Nadia Samir/ });
    expect(opener).toHaveTextContent('Move');

    const dialog = await openDialog(user);
    expect(dialog).toHaveTextContent('Current time: Mon, 4 Mar 2030, 19:00 (Tokyo time, GMT+9)');
    expect(dialog).toHaveTextContent('Your payment stays as it is');
    const tuesday = await within(dialog).findByRole('group', { name: 'Tuesday 5 March' });
    expect(
      within(tuesday)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['10:00', '11:00']);
    // the session's own time is not offered
    expect(within(dialog).queryByRole('group', { name: 'Monday 4 March' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Wednesday 6 March' })).toBeInTheDocument();
    const move = within(dialog).getByRole('button', { name: 'Move session' });
    expect(move).toBeDisabled();

    await user.click(within(tuesday).getByRole('radio', { name: '11:00' }));
    expect(dialog).toHaveTextContent('New time: Tue, 5 Mar 2030, 11:00 (Tokyo time)');
    expect(within(dialog).getByTestId('policy')).toHaveTextContent(
      `Free cancellation until ${formatDateTimeIn(new Date(Date.parse(TUE_11) - 24 * HOUR), 'Asia/Tokyo')} (Tokyo time)`,
    );
    expect(move).toBeEnabled();
    await user.click(move);

    expect(await findToast('Your session is moved to Tue 5 Mar, 03:00 (Cairo time, GMT+2)')).toHaveAttribute(
      'data-type',
      'success',
    );
    expect(body).toEqual({ startsAt: TUE_11 });
    expect(callsOf(fetchMock)).toContain('POST /api/bookings/b1/reschedule');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('a slot less than 24 hours away says the session will no longer be refundable', async () => {
    const soon = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 3 * HOUR).toISOString();
    const later = new Date(Date.parse(soon) + 72 * HOUR).toISOString();
    stubApi(slotsRoute(() => [soon, later]));
    const { user } = renderDialog(makeBooking({ startsAt: new Date(Date.parse(soon) + 48 * HOUR).toISOString(), endsAt: later }));
    const dialog = await openDialog(user);

    const [near, far] = await within(dialog).findAllByRole('radio');
    expect(within(dialog).queryByTestId('policy')).not.toBeInTheDocument();
    await user.click(near);
    expect(within(dialog).getByTestId('policy')).toHaveTextContent('Starts in less than 24 hours: not refundable');
    await user.click(far);
    expect(within(dialog).getByTestId('policy')).toHaveTextContent(/^Free cancellation until .+ \(Tokyo time\)$/);
  });

  it('states the policy the session was booked with at the new time: its own 48 hours, not today’s 24', async () => {
    const soon = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 30 * HOUR).toISOString();
    const later = new Date(Date.parse(soon) + 72 * HOUR).toISOString();
    stubApi(slotsRoute(() => [soon, later]));
    const policy = { version: 2, cancelHours: 48, disputeHours: 48, noShowHours: 168 };
    const { user } = renderDialog(makeBooking({ startsAt: new Date(Date.parse(soon) + 96 * HOUR).toISOString(), policy }));
    const dialog = await openDialog(user);

    const [near, far] = await within(dialog).findAllByRole('radio');
    await user.click(near);
    expect(within(dialog).getByTestId('policy')).toHaveTextContent('Starts in less than 48 hours: not refundable');
    await user.click(far);
    const deadline = new Date(Date.parse(later) - 48 * HOUR);
    expect(within(dialog).getByTestId('policy')).toHaveTextContent(
      `Free cancellation until ${formatDateTimeIn(deadline, 'Asia/Tokyo')} (Tokyo time)`,
    );
  });

  it('a slot just taken (409 SLOT_TAKEN) says so in the dialog and reloads the free times', async () => {
    let slotCalls = 0;
    const fetchMock = stubApi(
      slotsRoute(() => (++slotCalls === 1 ? [TUE_10, TUE_11] : [TUE_11])),
      (url, init) => {
        if (url.pathname === '/api/bookings/b1/reschedule' && init.method === 'POST') {
          return jsonResponse({ message: BOOKING_MSG.slotTaken, code: 'SLOT_TAKEN', statusCode: 409 }, 409);
        }
        if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [] });
        if (url.pathname === '/api/payments') return jsonResponse({});
        return undefined;
      },
    );
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.click(await within(dialog).findByRole('radio', { name: '10:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move session' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(BOOKING_MSG.slotTaken);
    await waitFor(() => expect(within(dialog).queryByRole('radio', { name: '10:00' })).not.toBeInTheDocument());
    expect(callsOf(fetchMock).filter((call) => call === 'GET /api/trainers/t1/slots')).toHaveLength(2);
    expect(within(dialog).getByRole('button', { name: 'Move session' })).toBeDisabled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("a time that is no longer a free slot (400) shows the field's message", async () => {
    stubApi(
      slotsRoute(() => [TUE_10]),
      (url, init) =>
        url.pathname === '/api/bookings/b1/reschedule' && init.method === 'POST'
          ? jsonResponse(
              {
                message: 'Validation failed',
                code: 'VALIDATION_FAILED',
                statusCode: 400,
                errors: { startsAt: BOOKING_MSG.notASlot },
              },
              400,
            )
          : undefined,
    );
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.click(await within(dialog).findByRole('radio', { name: '10:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move session' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(BOOKING_MSG.notASlot);
  });

  it('with no other free time, says so and offers to message the trainer', async () => {
    // the only slot answered is the session's own time
    stubApi(slotsRoute(() => [NOW_AT]));
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    expect(await within(dialog).findByText('No other free times in the next 14 days')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Message Nadia' })).toHaveAttribute(
      'href',
      '/user/chatOfUser?with=t1&name=Nadia',
    );
    expect(within(dialog).queryByRole('button', { name: 'Move session' })).not.toBeInTheDocument();
  });

  it('a failed load of the free times offers Retry', async () => {
    let calls = 0;
    stubApi((url) =>
      url.pathname === '/api/trainers/t1/slots'
        ? ++calls === 1
          ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
          : jsonResponse({ slots: [TUE_10], timeZone: 'Africa/Cairo' })
        : undefined,
    );
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('radio', { name: '10:00' })).toBeInTheDocument();
  });

  it('the times are one radio group for the keyboard, and Escape closes it with focus back on Move', async () => {
    stubApi(slotsRoute(() => [TUE_10, TUE_11, WED_10]));
    const { user } = renderDialog();
    const opener = screen.getByRole('button', { name: /^Move the session with Nadia Samir/ });
    const dialog = await openDialog(user);
    const group = await within(dialog).findByRole('radiogroup', { name: 'Free times' });
    const [first, second, third] = within(group).getAllByRole('radio');
    expect([first, second, third].map((r) => r.tabIndex)).toEqual([0, -1, -1]);

    first.focus();
    await user.keyboard('{ArrowRight}');
    expect(second).toHaveFocus();
    expect(second).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowDown}');
    expect(third).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(second).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Move session' })).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('shows no Move button when the server says the session cannot be moved', () => {
    stubApi();
    renderDialog(makeBooking({ canReschedule: false }));
    expect(screen.queryByRole('button', { name: /^Move/ })).not.toBeInTheDocument();
  });
});

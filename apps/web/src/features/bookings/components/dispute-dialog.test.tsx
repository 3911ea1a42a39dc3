import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPUTE_MSG, type TBooking, type TDispute } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { MySessions } from './my-sessions';

// The visitor is in Tokyo (UTC+9); the trainer is in Cairo (UTC+2).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: '2020-05-01T10:00:00.000Z',
  endsAt: '2020-05-01T11:00:00.000Z',
  status: 'completed',
  price: 150,
  currency: 'USD',
  holdExpiresAt: null,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: false,
  isRefundable: false,
  cancellableUntil: null,
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  canReschedule: false,
  disputableUntil: '2020-05-03T11:00:00.000Z',
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  paidFromBalance: false,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
  ...overrides,
});

const makeDispute = (overrides: Partial<TDispute> = {}): TDispute => ({
  _id: 'd1',
  bookingId: 'b1',
  reason: 'cut-short',
  note: 'Only 30 minutes',
  createdAt: '2020-05-01T12:00:00.000Z',
  status: 'open',
  rule: null,
  outcome: null,
  refunded: null,
  decidedAt: null,
  decisionReason: null,
  ...overrides,
});

const DISPUTE_BUTTON = /^Report a problem with the session with Nadia Samir/;

describe('disputing a session', () => {
  it('offers Report a problem only on the sessions the server says can be disputed, and says how a dispute stands', async () => {
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? jsonResponse({
            bookings: [
              makeBooking(),
              makeBooking({ _id: 'b2', trainerFirstName: 'Omar', disputableUntil: null }),
              makeBooking({ _id: 'b3', trainerFirstName: 'Sara', disputableUntil: null, disputeStatus: 'open' }),
              makeBooking({ _id: 'b4', trainerFirstName: 'Hana', disputableUntil: null, disputeStatus: 'decided' }),
            ],
          })
        : undefined,
    );
    renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Past and cancelled sessions' });
    const [nadia, omar, sara, hana] = within(list).getAllByRole('listitem');
    expect(within(nadia).getByRole('button', { name: DISPUTE_BUTTON })).toHaveTextContent('Report a problem');
    for (const item of [omar, sara, hana]) expect(within(item).queryByRole('button', { name: /Report a problem/ })).toBeNull();
    expect(sara).toHaveTextContent('Disputed: waiting for an operator');
    expect(hana).toHaveTextContent('Dispute decided');
    expect(nadia).not.toHaveTextContent(/Disput/);
  });

  it('sends the reason and note, shows the server’s words and the card’s new status, and puts the focus on it', async () => {
    let isDisputed = false;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [isDisputed ? makeBooking({ disputableUntil: null, disputeStatus: 'open' }) : makeBooking()],
        });
      if (url.pathname === '/api/bookings/b1/dispute' && init.method === 'POST') {
        isDisputed = true;
        return jsonResponse({ dispute: makeDispute(), message: DISPUTE_MSG.opened }, 201);
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    await user.click(await screen.findByRole('button', { name: DISPUTE_BUTTON }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a problem with this session' });
    expect(dialog).toHaveTextContent('You can report a problem until Sun, 3 May 2020, 20:00 (Tokyo time, GMT+9).');
    expect(dialog).toHaveTextContent('An operator will look at it and tell you both what they decided.');
    expect(dialog).toHaveTextContent('The trainer’s payout waits until then.');

    // no reason chosen: said at the reasons, nothing sent
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Choose what went wrong')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'The trainer did not come' })).toHaveFocus();
    expect(callsOf(fetchMock)).not.toContain('POST /api/bookings/b1/dispute');

    await user.click(within(dialog).getByRole('radio', { name: 'The session was cut short' }));
    expect(within(dialog).queryByText('Choose what went wrong')).toBeNull();
    await user.type(within(dialog).getByLabelText(/What happened/), '  Only 30 minutes ');
    expect(within(dialog).getByText('18/1000')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const answer = await within(dialog).findByRole('status');
    expect(answer).toHaveTextContent(DISPUTE_MSG.opened);
    const done = within(dialog).getByRole('button', { name: 'Done' });
    expect(done).toHaveFocus();
    const request = fetchMock.mock.calls.find(([input]) => input === '/api/bookings/b1/dispute');
    expect(JSON.parse(String(request?.[1]?.body))).toEqual({ reason: 'cut-short', note: 'Only 30 minutes' });

    const status = await screen.findByText('Disputed: waiting for an operator');
    expect(screen.queryByRole('button', { name: DISPUTE_BUTTON })).toBeNull();
    await user.click(done);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(status).toHaveFocus();
    await waitFor(() => expect(callsOf(fetchMock).filter((call) => call === 'GET /api/bookings')).toHaveLength(2));
  });

  it('shows a decision by rule in the server’s words', async () => {
    let isDisputed = false;
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [isDisputed ? makeBooking({ disputableUntil: null, disputeStatus: 'decided' }) : makeBooking()],
        });
      if (url.pathname === '/api/bookings/b1/dispute' && init.method === 'POST') {
        isDisputed = true;
        return jsonResponse(
          {
            dispute: makeDispute({ status: 'decided', rule: 'trainer-cancelled', outcome: 'refund-full', refunded: 150 }),
            message: DISPUTE_MSG.trainerCancelled,
          },
          201,
        );
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    await user.click(await screen.findByRole('button', { name: DISPUTE_BUTTON }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(DISPUTE_MSG.trainerCancelled);
    expect(await screen.findByText('Dispute decided')).toBeInTheDocument();
  });

  it('shows a refusal (409) in the dialog, which stays open with what was written', async () => {
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [makeBooking()] });
      if (url.pathname === '/api/bookings/b1/dispute' && init.method === 'POST')
        return jsonResponse({ statusCode: 409, code: 'CONFLICT', message: DISPUTE_MSG.already }, 409);
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    await user.click(await screen.findByRole('button', { name: DISPUTE_BUTTON }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'The trainer did not come' }));
    await user.type(within(dialog).getByLabelText(/What happened/), 'Nobody came');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(DISPUTE_MSG.already);
    expect(within(dialog).getByLabelText(/What happened/)).toHaveValue('Nobody came');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('puts the server’s field errors under their fields, and Escape closes the dialog with the focus back on its button', async () => {
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [makeBooking()] });
      if (url.pathname === '/api/bookings/b1/dispute' && init.method === 'POST')
        return jsonResponse(
          {
            statusCode: 400,
            code: 'VALIDATION_ERROR',
            message: 'Check the highlighted fields',
            errors: { note: 'Keep the note under 1,000 characters' },
          },
          400,
        );
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    const button = await screen.findByRole('button', { name: DISPUTE_BUTTON });
    await user.click(button);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/What happened/)).toHaveAccessibleDescription(/Keep the note under/),
    );
    expect(within(dialog).getByLabelText(/What happened/)).toHaveAttribute('aria-invalid', 'true');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });
});

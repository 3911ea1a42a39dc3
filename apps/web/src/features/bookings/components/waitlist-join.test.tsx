import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAITLIST_MSG, type TWaitlistEntry } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { BookingDialog } from './booking-dialog';
import { WaitlistJoin } from './waitlist-join';

// The visitor is in Tokyo (UTC+9); the trainer is in New York, which moves to summer time (UTC-4) on
// Sunday 10 March 2030. It is Tuesday 5 March, 15:30 in New York (UTC-5).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});
const NOW = new Date('2030-03-05T20:30:00.000Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const NEW_YORK = 'America/New_York';
const trainer = { _id: 't1', firstName: 'Nadia', lastName: 'Samir', price: 150 };

const logIn = (role: 'user' | 'trainer') => {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', role);
};

const entry = (from: string, to: string): TWaitlistEntry => ({
  _id: 'w1',
  trainerId: 't1',
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  from,
  to,
  createdAt: NOW.toISOString(),
  status: 'waiting',
  offer: null,
});

/** A fake POST /api/waitlist answering `answer(body)`, recording the bodies it got. */
function waitlistRoute(answer: (body: { from: string; to: string }) => Response) {
  const bodies: unknown[] = [];
  const route = (url: URL, init: RequestInit) => {
    if (url.pathname !== '/api/waitlist' || init.method !== 'POST') return undefined;
    const body = JSON.parse(String(init.body)) as { from: string; to: string };
    bodies.push(body);
    return answer(body);
  };
  return { route, bodies };
}

const renderJoin = () => renderWithProviders(<WaitlistJoin trainer={trainer} timeZone={NEW_YORK} />);

describe('WaitlistJoin', () => {
  it("posts the window of the chosen day and part of the day in the trainer's zone, and shows the server's message", async () => {
    logIn('user');
    const { route, bodies } = waitlistRoute((body) =>
      jsonResponse({ message: WAITLIST_MSG.joined, entry: entry(body.from, body.to) }, 201),
    );
    stubApi(route);
    const { user } = renderJoin();

    expect(screen.getByText(/we hold it for you for 30 minutes and e-mail you\. You pay only if you book it\./)).toBeVisible();
    const date = screen.getByRole('combobox', { name: 'Date' });
    // the next 14 days in New York, from today
    const options = within(date).getAllByRole('option');
    expect(options).toHaveLength(14);
    expect(options[0]).toHaveTextContent('Tuesday 5 March');
    expect(options.at(-1)).toHaveTextContent('Monday 18 March');

    // after the change to summer time: 17:00–22:00 in New York is 21:00–02:00 UTC
    await user.selectOptions(date, 'Monday 11 March');
    await user.click(screen.getByRole('radio', { name: /^Evening/ }));
    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));

    expect(await screen.findByRole('status')).toHaveTextContent(WAITLIST_MSG.joined);
    expect(bodies).toEqual([{ trainerId: 't1', from: '2030-03-11T21:00:00.000Z', to: '2030-03-12T02:00:00.000Z' }]);

    // before it, all day (06:00–22:00) is 11:00–03:00 UTC
    await user.selectOptions(date, 'Saturday 9 March');
    await user.click(screen.getByRole('radio', { name: /^Any time/ }));
    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ trainerId: 't1', from: '2030-03-09T11:00:00.000Z', to: '2030-03-10T03:00:00.000Z' });
  });

  it('does not offer the parts of today that have passed', async () => {
    logIn('user');
    stubApi();
    const { user } = renderJoin();

    expect(screen.getByRole('radio', { name: /^Morning/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /^Afternoon/ })).toBeEnabled();
    expect(screen.getByRole('radio', { name: /^Any time/ })).toBeChecked();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Date' }), 'Wednesday 6 March');
    expect(screen.getByRole('radio', { name: /^Morning/ })).toBeEnabled();
  });

  it("shows the server's refusal, with a field's message next to the field", async () => {
    logIn('user');
    const { route } = waitlistRoute(() =>
      jsonResponse(
        {
          code: 'VALIDATION_FAILED',
          message: WAITLIST_MSG.windowFar,
          statusCode: 400,
          errors: { from: WAITLIST_MSG.windowFar },
        },
        400,
      ),
    );
    stubApi(route);
    const { user } = renderJoin();

    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WAITLIST_MSG.windowFar);
    const date = screen.getByRole('combobox', { name: 'Date' });
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription(WAITLIST_MSG.windowFar);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a conflict (already waiting) as the server words it', async () => {
    logIn('user');
    const { route } = waitlistRoute(() =>
      jsonResponse({ code: 'CONFLICT', message: WAITLIST_MSG.already, statusCode: 409 }, 409),
    );
    stubApi(route);
    const { user } = renderJoin();

    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WAITLIST_MSG.already);
    expect(screen.getByRole('combobox', { name: 'Date' })).not.toHaveAttribute('aria-invalid');
  });

  it('asks a visitor to log in, and shows a trainer nothing', () => {
    stubApi();
    const { unmount } = renderWithProviders(<WaitlistJoin trainer={trainer} timeZone={NEW_YORK} />, {
      route: '/trainer/profile/t1',
    });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/users/login?next=%2Ftrainer%2Fprofile%2Ft1');
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).not.toBeInTheDocument();
    unmount();

    logIn('trainer');
    renderJoin();
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });
});

describe('the slot picker offers the waitlist', () => {
  const slotsRoute = (slots: string[]) => (url: URL) =>
    url.pathname === '/api/trainers/t1/slots' ? jsonResponse({ slots, timeZone: NEW_YORK }) : undefined;
  const renderDialog = () => renderWithProviders(<BookingDialog trainer={trainer} isOpen onOpenChange={() => undefined} />);

  it('below the free times, behind "None of these times suit you?"', async () => {
    logIn('user');
    const { route, bodies } = waitlistRoute((body) =>
      jsonResponse({ message: WAITLIST_MSG.joined, entry: entry(body.from, body.to) }, 201),
    );
    const fetchMock = stubApi(slotsRoute(['2030-03-07T14:00:00.000Z']), route, (url) =>
      url.pathname === '/api/bookings' ? jsonResponse({ bookings: [] }) : undefined,
    );
    const { user } = renderDialog();

    const toggle = await screen.findByRole('button', { name: 'None of these times suit you? Join the waitlist' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // the picker shows times in the visitor's zone (Tokyo) until they switch: so does the form
    await user.selectOptions(screen.getByRole('combobox', { name: 'Date' }), 'Friday 8 March');
    await user.click(screen.getByRole('radio', { name: /^Morning/ }));
    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));

    expect(await screen.findByText(WAITLIST_MSG.joined)).toBeInTheDocument();
    expect(bodies).toEqual([{ trainerId: 't1', from: '2030-03-07T21:00:00.000Z', to: '2030-03-08T03:00:00.000Z' }]);
    expect(callsOf(fetchMock)).toContain('POST /api/waitlist');
  });

  it("with no free time, beside 'Message Nadia'", async () => {
    logIn('user');
    stubApi(slotsRoute([]), (url) => (url.pathname === '/api/bookings' ? jsonResponse({ bookings: [] }) : undefined));
    const { user } = renderWithProviders(
      <BookingDialog trainer={trainer} isOpen onOpenChange={() => undefined} onMessage={() => undefined} />,
    );

    expect(await screen.findByText('No free times in the next 14 days')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Message Nadia' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(screen.getByRole('combobox', { name: 'Date' })).toHaveFocus();
    expect(screen.getAllByRole('button', { name: 'Join the waitlist' })).toHaveLength(1);
  });

  it('not to a trainer', async () => {
    logIn('trainer');
    stubApi(slotsRoute(['2030-03-07T14:00:00.000Z']));
    renderDialog();

    expect(await screen.findByRole('radio', { name: '23:00' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Join the waitlist/ })).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST_MSG, type TWaitlistEntry } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { MyWaitlist } from './my-waitlist';

// The user is in Tokyo (UTC+9): the list shows times there.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});
afterEach(() => localStorage.clear());

const logIn = (role: 'user' | 'trainer') => {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', role);
};

const makeEntry = (overrides: Partial<TWaitlistEntry> = {}): TWaitlistEntry => ({
  _id: 'w1',
  trainerId: 't1',
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  // Wednesday 6 March 2030, 06:00–12:00 in Tokyo
  from: '2030-03-05T21:00:00.000Z',
  to: '2030-03-06T03:00:00.000Z',
  createdAt: '2030-03-01T10:00:00.000Z',
  status: 'waiting',
  offer: null,
  ...overrides,
});

const waiting = makeEntry();
const offered = makeEntry({
  _id: 'w2',
  trainerId: 't2',
  trainerFirstName: 'Omar',
  trainerLastName: 'Farouk',
  status: 'offered',
  offer: { bookingId: 'b2', startsAt: '2030-03-06T01:00:00.000Z', holdExpiresAt: '2030-03-05T05:30:00.000Z' },
});
const booked = makeEntry({
  _id: 'w3',
  trainerId: 't3',
  trainerFirstName: 'Laila',
  trainerLastName: 'Hany',
  status: 'booked',
  offer: { bookingId: 'b3', startsAt: '2030-03-06T02:00:00.000Z', holdExpiresAt: null },
});

const listRoute = (entries: () => TWaitlistEntry[]) => (url: URL, init: RequestInit) =>
  url.pathname === '/api/waitlist' && (init.method ?? 'GET') === 'GET' ? jsonResponse({ entries: entries() }) : undefined;

describe('MyWaitlist', () => {
  it('lists each wait with its trainer, its window and its status: waiting, a time held (to pay for), booked', async () => {
    logIn('user');
    stubApi(listRoute(() => [waiting, offered, booked]));
    renderWithProviders(<MyWaitlist />);

    const list = await screen.findByRole('list', { name: 'Your waits' });
    expect(screen.getByRole('region', { name: 'Your waitlist' })).toBeInTheDocument();
    const [first, second, third] = within(list).getAllByRole('listitem');

    expect(within(first).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/trainer/profile/t1');
    expect(first).toHaveTextContent('Wednesday 6 March, 06:00–12:00');
    expect(first).toHaveTextContent('Waiting');
    expect(within(first).queryByRole('link', { name: 'Continue to payment' })).not.toBeInTheDocument();

    expect(second).toHaveTextContent('A time is held for you until 14:30: Wed 6 Mar, 10:00');
    expect(within(second).getByRole('link', { name: 'Continue to payment' })).toHaveAttribute('href', '/trainer/profile/t2');

    expect(third).toHaveTextContent('Booked: Wed 6 Mar, 11:00');
    expect(within(third).queryByRole('link', { name: 'Continue to payment' })).not.toBeInTheDocument();
    expect(within(third).getByRole('button', { name: /^Leave Laila Hany’s waitlist/ })).toBeInTheDocument();
  });

  it('leaves a wait: the button shows progress, then the wait is gone (and the section with it)', async () => {
    logIn('user');
    let entries = [waiting];
    let release: () => void = () => undefined;
    const fetchMock = stubApi(
      listRoute(() => entries),
      (url, init) => {
        if (url.pathname !== '/api/waitlist/w1' || init.method !== 'DELETE') return undefined;
        return new Promise<Response>((resolve) => {
          release = () => {
            entries = [];
            resolve(jsonResponse({ message: WAITLIST_MSG.left }));
          };
        }) as unknown as Response;
      },
    );
    const { user } = renderWithProviders(<MyWaitlist />);

    const leave = await screen.findByRole('button', { name: 'Leave Nadia Samir’s waitlist for Wednesday 6 March, 06:00–12:00' });
    await user.click(leave);
    expect(leave).toHaveAttribute('aria-busy', 'true');
    expect(leave).toBeDisabled();
    expect(callsOf(fetchMock)).toContain('DELETE /api/waitlist/w1');
    release();

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Your waitlist' })).not.toBeInTheDocument());
    expect(callsOf(fetchMock).filter((call) => call === 'GET /api/waitlist')).toHaveLength(2);
  });

  it('shows why Leave failed and refreshes the list', async () => {
    logIn('user');
    const fetchMock = stubApi(
      listRoute(() => [waiting]),
      (url, init) =>
        url.pathname === '/api/waitlist/w1' && init.method === 'DELETE'
          ? jsonResponse({ code: 'NOT_FOUND', message: WAITLIST_MSG.notFound, statusCode: 404 }, 404)
          : undefined,
    );
    const { user } = renderWithProviders(<MyWaitlist />);

    await user.click(await screen.findByRole('button', { name: /^Leave Nadia Samir’s waitlist/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WAITLIST_MSG.notFound);
    await waitFor(() => expect(callsOf(fetchMock).filter((call) => call === 'GET /api/waitlist')).toHaveLength(2));
  });

  it('shows a failure with Retry, and Retry loads the list', async () => {
    logIn('user');
    let calls = 0;
    stubApi((url) =>
      url.pathname === '/api/waitlist'
        ? ++calls === 1
          ? jsonResponse({ message: 'Database unavailable', statusCode: 503 }, 503)
          : jsonResponse({ entries: [waiting] })
        : undefined,
    );
    const { user } = renderWithProviders(<MyWaitlist />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your waitlist');
    expect(alert).toHaveTextContent('Database unavailable');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Your waits' })).toHaveTextContent('Nadia Samir');
  });

  it('shows nothing when the user waits for nothing, and asks nothing for a trainer', async () => {
    logIn('user');
    const fetchMock = stubApi(listRoute(() => []));
    const { unmount } = renderWithProviders(<MyWaitlist />);
    await waitFor(() => expect(callsOf(fetchMock)).toEqual(['GET /api/waitlist']));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Your waitlist' })).not.toBeInTheDocument();
    unmount();

    localStorage.clear();
    logIn('trainer');
    fetchMock.mockClear();
    renderWithProviders(<MyWaitlist />);
    expect(screen.queryByRole('heading', { name: 'Your waitlist' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

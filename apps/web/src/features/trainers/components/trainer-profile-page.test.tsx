import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { testTrainer, testUser } from '@/testing/accounts';
import { makeTrainer, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { TrainerProfilePage, type TrainerProfileSections } from './trainer-profile-page';

// The booking dialog and the chat panel are other features': stand-ins show what the profile hands them.
const sections: TrainerProfileSections = {
  ratingBreakdown: () => null,
  reviews: () => null,
  booking: (_trainer, { isOpen, onOpenChange, onMessage }) =>
    isOpen ? (
      <div role="dialog" aria-label="Booking">
        <button
          type="button"
          onClick={() => {
            onOpenChange(false);
            onMessage();
          }}
        >
          Message from the dialog
        </button>
      </div>
    ) : null,
  chat: (trainer, { isOpen }) => (isOpen ? <p>Conversation with {trainer.firstName}</p> : null),
};

const hold = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: '2030-01-08T05:00:00.000Z',
  endsAt: '2030-01-08T06:00:00.000Z',
  status: 'pending',
  price: 150,
  currency: 'USD',
  holdExpiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
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

const routes =
  ({ trainer = makeTrainer(), bookings = [] as TBooking[], own = testUser() as unknown } = {}) =>
  (url: URL) => {
    if (url.pathname === '/api/trainerData/t1') return jsonResponse({ trainerData: trainer });
    if (url.pathname === '/api/userData') return jsonResponse({ userData: own });
    if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: own });
    if (url.pathname === '/api/favorites') return jsonResponse({ favorites: [] });
    if (url.pathname === '/api/bookings') return jsonResponse({ bookings });
    return undefined;
  };

const renderProfile = () =>
  renderWithProviders(<TrainerProfilePage sections={sections} />, { route: '/trainer/profile/t1', path: '/trainer/profile/:id' });

function logInAsUser() {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', 'user');
}

function logInAsTrainer() {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', 'trainer');
}

const reportProfile = () => screen.queryByRole('button', { name: 'Report profile of Nadia Samir' });

describe('TrainerProfilePage', () => {
  afterEach(() => localStorage.clear());

  it("shows the trainer's next free time, or that none is open", async () => {
    stubApi(routes({ trainer: makeTrainer({ nextFreeAt: '2030-01-08T05:00:00.000Z' }) }));
    const { unmount } = renderProfile();
    // UTC in the tests
    expect(await screen.findByText(/^Next free:/)).toHaveTextContent('Next free: Tue 05:00');
    unmount();

    stubApi(routes({ trainer: makeTrainer({ nextFreeAt: null }) }));
    renderProfile();
    expect(await screen.findByText('No free times in the next 14 days')).toBeInTheDocument();
    expect(screen.queryByText(/Next free/)).not.toBeInTheDocument();
  });

  it("shows 'Verified coach' under the name only for a verified coach", async () => {
    stubApi(routes({ trainer: makeTrainer({ verified: true }) }));
    const { unmount } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });
    expect(screen.getByText('Verified coach').querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    unmount();

    stubApi(routes({ trainer: makeTrainer({ verified: false }) }));
    renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });
    expect(screen.queryByText('Verified coach')).not.toBeInTheDocument();
  });

  it("reads 'Continue to payment' for a person's own unpaid hold with this trainer, not for a lapsed one", async () => {
    logInAsUser();
    stubApi(routes({ bookings: [hold()] }));
    const { unmount } = renderProfile();
    expect((await screen.findAllByRole('button', { name: 'Continue to payment' })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Book now!' })).not.toBeInTheDocument();
    unmount();

    stubApi(
      routes({
        bookings: [hold({ holdExpiresAt: new Date(Date.now() - 60_000).toISOString() }), hold({ _id: 'b2', trainerId: 't9' })],
      }),
    );
    renderProfile();
    expect((await screen.findAllByRole('button', { name: 'Book now!' })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Continue to payment' })).not.toBeInTheDocument();
  });

  it("the booking dialog's 'Message' opens the conversation, as the profile's Message does", async () => {
    logInAsUser();
    stubApi(routes());
    const { user } = renderProfile();

    await user.click((await screen.findAllByRole('button', { name: 'Book now!' }))[0]);
    await user.click(screen.getByRole('button', { name: 'Message from the dialog' }));
    expect(screen.queryByRole('dialog', { name: 'Booking' })).not.toBeInTheDocument();
    expect(screen.getByText('Conversation with Nadia')).toBeInTheDocument();
  });

  it("offers 'Report profile' to a signed-in person, opening the report dialog, and not to a visitor", async () => {
    stubApi(routes());
    const { unmount } = renderProfile();
    await screen.findByRole('heading', { name: 'Nadia Samir', level: 1 });
    expect(reportProfile()).not.toBeInTheDocument();
    unmount();

    logInAsUser();
    stubApi(routes());
    const { user } = renderProfile();
    await screen.findByRole('heading', { name: 'Nadia Samir', level: 1 });
    const button = reportProfile();
    expect(button).toHaveTextContent('Report profile');
    await user.click(button!);
    const dialog = await screen.findByRole('dialog', { name: 'Report this profile' });
    expect(within(dialog).getByText(/the profile of Nadia Samir/)).toBeInTheDocument();
  });

  it("offers 'Report profile' to another trainer, and not to the trainer on their own profile", async () => {
    logInAsTrainer();
    stubApi(routes({ own: testTrainer({ _id: 't9' }) }));
    const { unmount } = renderProfile();
    expect(await screen.findByRole('button', { name: 'Report profile of Nadia Samir' })).toBeInTheDocument();
    unmount();

    stubApi(routes({ own: testTrainer({ _id: 't1' }) }));
    renderProfile();
    expect(await screen.findAllByRole('link', { name: /Edit profile/ })).not.toHaveLength(0);
    expect(reportProfile()).not.toBeInTheDocument();
  });
});

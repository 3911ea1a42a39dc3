import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testTrainer, testUser } from '@/testing/accounts';
import { FavoriteTrainers } from '@/features/favourites/components/favorite-trainers';
import { callsOf, listAnswer, makeReview, makeTrainer, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { TrainerListPage } from '@/features/trainers/components/trainer-list-page';
import { TrainerProfileRoute } from './trainer-profile-route';

const distribution = { '1': 0, '2': 0, '3': 1, '4': 0, '5': 12 };

const profileRoutes =
  ({ trainer = makeTrainer(), reviews = [makeReview()] } = {}) =>
  (url: URL) => {
    if (url.pathname === '/api/trainerData/t1') return jsonResponse({ trainerData: trainer });
    if (url.pathname === '/api/trainer/reviews/t1/distribution') return jsonResponse({ distribution });
    if (url.pathname === '/api/trainer/reviews/t1') return jsonResponse({ allReviews: reviews });
    if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
    if (url.pathname === '/api/favorites') return jsonResponse({ favorites: [] });
    return undefined;
  };

const profileApi = (options?: Parameters<typeof profileRoutes>[0]) => stubApi(profileRoutes(options));

const renderProfile = (id = 't1') =>
  renderWithProviders(<TrainerProfileRoute />, { route: `/trainer/profile/${id}`, path: '/trainer/profile/:id' });

function logInAs(role: 'user' | 'trainer') {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', role);
}

describe('TrainerProfileRoute', () => {
  it('shows a visitor the profile and the login prompt instead of the reviews', async () => {
    const fetchMock = profileApi();
    renderProfile();

    expect(await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' })).toBeInTheDocument();
    expect(screen.getByText('Strength coach')).toBeInTheDocument();
    expect(screen.getByText('Price: $150')).toBeInTheDocument();
    expect(screen.getByText(/Subscribers:/)).toHaveTextContent('Subscribers: 7');
    expect(screen.getAllByText('2 reviews').length).toBeGreaterThan(0);
    expect(screen.getByText("Please Login to Review Nadia's Profile!")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to review' })).toHaveAttribute('href', '/users/login');
    expect(screen.queryByRole('button', { name: 'Post review' })).not.toBeInTheDocument();
    expect(callsOf(fetchMock)).not.toContain('GET /api/trainer/reviews/t1');

    const breakdown = await screen.findByRole('list', { name: 'Rating breakdown' });
    expect(
      within(breakdown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['5 stars: 12', '4 stars: 0', '3 stars: 1', '2 stars: 0', '1 star: 0']);
  });

  it('gives a visitor the role toasts for booking and chat', async () => {
    profileApi();
    const { user } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });

    await user.click(screen.getAllByRole('button', { name: 'Book now!' })[0]);
    expect(await findToast('Log in to start booking Trainers!')).not.toHaveAttribute('data-type', 'error');
    await user.click(screen.getByRole('button', { name: 'Message Nadia' }));
    expect(await findToast('Only users can message trainers!')).not.toHaveAttribute('data-type', 'error');
  });

  it('tells a trainer that trainers cannot book or message trainers', async () => {
    logInAs('trainer');
    profileApi();
    const { user } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });

    await user.click(screen.getAllByRole('button', { name: 'Book now!' })[0]);
    expect(await findToast("Trainers can't book other Trainers!")).toHaveAttribute('data-type', 'error');
    await user.click(screen.getByRole('button', { name: 'Message Nadia' }));
    expect(await findToast("Trainers can't message other trainers!")).toHaveAttribute('data-type', 'error');
  });

  it('shows a logged-in user the reviews as text and the form', async () => {
    logInAs('user');
    profileApi({ reviews: [makeReview({ comment: '<img src=x onerror=alert(1)> strong coach' })] });
    renderProfile();

    const reviews = await screen.findByRole('list', { name: 'Reviews' });
    expect(within(reviews).getByText('Mariam Hassan')).toBeInTheDocument();
    expect(within(reviews).getByText('<img src=x onerror=alert(1)> strong coach')).toBeInTheDocument();
    expect(within(reviews).queryByRole('img')).not.toBeInTheDocument();
    // the form's code loads on its own (a logged-in viewer only), alongside the reviews
    expect(await screen.findByRole('button', { name: 'Post review' })).toBeInTheDocument();
    expect(screen.queryByText(/Please Login to Review/)).not.toBeInTheDocument();
  });

  it('posting a review refreshes the rating, the count and the breakdown wherever the trainer shows', async () => {
    logInAs('user');
    let posted = false;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/reviews/new' && init.method === 'POST') {
        posted = true;
        return jsonResponse(
          { message: 'Thank you for sharing your experience!', review: makeReview({ rating: 5, isMine: true }) },
          201,
        );
      }
      if (url.pathname === '/api/trainerData/t1') {
        return jsonResponse({ trainerData: posted ? makeTrainer({ rating: 4.7, ratingCount: 3 }) : makeTrainer() });
      }
      if (url.pathname === '/api/trainer/reviews/t1/distribution') {
        return jsonResponse({ distribution: posted ? { ...distribution, '5': 13 } : distribution });
      }
      if (url.pathname === '/api/trainer/reviews/t1') {
        return jsonResponse({
          allReviews: posted ? [makeReview({ _id: 'r2', rating: 5, isMine: true }), makeReview()] : [makeReview()],
        });
      }
      if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
      if (url.pathname === '/api/favorites') return jsonResponse({ favorites: ['t1'] });
      if (url.pathname === '/api/trainers' && url.searchParams.get('ids') === 't1') {
        return jsonResponse(listAnswer([posted ? makeTrainer({ rating: 4.7, ratingCount: 3 }) : makeTrainer()]));
      }
      return undefined;
    });
    // The user's favourites (own profile) on screen at the same time, sharing the cache.
    const { user } = renderWithProviders(
      <>
        <TrainerProfileRoute />
        <FavoriteTrainers />
      </>,
      { route: '/trainer/profile/t1', path: '/trainer/profile/:id' },
    );

    const favourites = await screen.findByRole('list', { name: 'Favourite trainers' });
    expect(within(favourites).getByText('Rated 4.5 out of 5 from 2 reviews')).toBeInTheDocument();
    const booking = await screen.findByRole('complementary', { name: 'Booking' });
    expect(within(booking).getByText('4.5')).toBeInTheDocument();
    expect(within(booking).getByText('2 reviews')).toBeInTheDocument();

    await user.click(await screen.findByRole('radio', { name: '5 stars' }));
    await user.type(screen.getByLabelText('Your review'), 'Patient and precise.');
    await user.click(screen.getByRole('button', { name: 'Post review' }));

    expect(await findToast('Thank you for sharing your experience!')).toHaveAttribute('data-type', 'success');
    await waitFor(() => expect(within(booking).getByText('4.7')).toBeInTheDocument());
    expect(within(booking).getByText('3 reviews')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Nadia Samir' }).parentElement).toHaveTextContent('4.7(3 reviews)');
    const breakdown = screen.getByRole('list', { name: 'Rating breakdown' });
    await waitFor(() => expect(within(breakdown).getAllByRole('listitem')[0]).toHaveTextContent('5 stars: 13'));
    expect(await within(favourites).findByText('Rated 4.7 out of 5 from 3 reviews')).toBeInTheDocument();
    expect(await within(screen.getByRole('list', { name: 'Reviews' })).findByText('Your review')).toBeInTheDocument();
    expect(callsOf(fetchMock).filter((call) => call === 'GET /api/trainerData/t1')).toHaveLength(2);
  });

  it('a heart on the profile is the same favourite as everywhere else, kept in `favorites`', async () => {
    localStorage.setItem('favorites', JSON.stringify(['other']));
    profileApi();
    const { user } = renderProfile();

    await user.click(await screen.findByRole('button', { name: 'Add Nadia to favourites' }));

    expect(await screen.findByRole('button', { name: 'Remove Nadia from favourites' })).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(localStorage.getItem('favorites') ?? '[]')).toEqual(['other', 't1']);
  });

  it('tells a user whose e-mail is not verified to verify it, with Resend, instead of a form', async () => {
    logInAs('user');
    let resent = 0;
    stubApi((url, init) => {
      if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser({ emailVerified: false }) });
      if (url.pathname === '/api/verify/resend' && init.method === 'POST') {
        resent += 1;
        return jsonResponse({ message: 'We sent you a new verification link' });
      }
      return undefined;
    }, profileRoutes());
    const { user } = renderProfile();

    expect(await screen.findByText('Verify your e-mail address to post a review')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Post review' })).not.toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Reviews' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await findToast('We sent you a new verification link')).toHaveAttribute('data-type', 'success');
    expect(resent).toBe(1);
  });

  it("opens a user's booking dialog from 'Book now!' with the trainer's free slots", async () => {
    logInAs('user');
    stubApi(
      (url) =>
        url.pathname === '/api/trainers/t1/slots'
          ? jsonResponse({ slots: ['2030-01-07T09:00:00.000Z'], timeZone: 'Africa/Cairo' })
          : undefined,
      profileRoutes(),
    );
    const { user } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });

    await user.click(screen.getAllByRole('button', { name: 'Book now!' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Book a session with Nadia' });
    expect(await within(dialog).findAllByRole('group')).toHaveLength(1);
    expect(within(dialog).getByText('$150 per one-hour session')).toBeInTheDocument();
  });

  it('shows a trainer on their own profile a link to their availability instead of booking', async () => {
    logInAs('trainer');
    stubApi(
      (url) => (url.pathname === '/api/trainerData' ? jsonResponse({ trainerData: testTrainer() }) : undefined),
      profileRoutes(),
    );
    renderProfile();

    expect((await screen.findAllByRole('link', { name: 'Edit your availability' }))[0]).toHaveAttribute(
      'href',
      '/trainer/settings#availability',
    );
    expect(screen.queryByRole('button', { name: 'Book now!' })).not.toBeInTheDocument();
  });

  it('shows a trainer their own profile as others see it, with "Edit profile" instead of a review form, heart or chat', async () => {
    logInAs('trainer');
    stubApi(
      (url) => (url.pathname === '/api/trainerData' ? jsonResponse({ trainerData: testTrainer() }) : undefined),
      profileRoutes(),
    );
    renderProfile();

    const editLinks = await screen.findAllByRole('link', { name: 'Edit profile' });
    for (const link of editLinks) expect(link).toHaveAttribute('href', '/trainer/settings');
    expect(screen.getByRole('heading', { level: 1, name: 'Nadia Samir' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Reviews' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Post review' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /favourites/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Message Nadia' })).not.toBeInTheDocument();
  });

  it("shows 'Subscribers' only when there are some", async () => {
    profileApi({ trainer: makeTrainer({ subscribers: 0 }) });
    renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });
    expect(screen.queryByText(/Subscribers/)).not.toBeInTheDocument();
  });

  it('shows the trainer’s packages between the introduction and the reviews, with Buy for a user', async () => {
    logInAs('user');
    profileApi({
      trainer: makeTrainer({ price: 40, packages: [{ _id: 'p1', sessions: 5, price: 180, perSession: 36, validityMonths: 3 }] }),
    });
    renderProfile();
    const section = await screen.findByRole('region', { name: 'Packages' });
    expect(section).toHaveTextContent('5 sessions · $180 · $36 a session · save $20 · valid 3 months');
    expect(within(section).getByRole('button', { name: 'Buy 5 sessions with Nadia for $180' })).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.indexOf('Packages')).toBe(headings.indexOf('About Nadia') + 1);
  });

  it("takes 'All trainers' back to the search the person came from", async () => {
    stubApi((url) => (url.pathname === '/api/trainers' ? jsonResponse(listAnswer([makeTrainer()])) : undefined), profileRoutes());
    const list = renderWithProviders(<TrainerListPage />, { route: '/trainers?q=yoga&city=Giza', path: '/trainers' });
    expect(await screen.findByText('1 trainer')).toBeInTheDocument();
    list.unmount();

    renderProfile();
    expect(await screen.findByRole('link', { name: 'All trainers' })).toHaveAttribute('href', '/trainers?q=yoga&city=Giza');
    sessionStorage.clear();
  });

  it('says "Trainer not found" with a way back to the list', async () => {
    stubApi((url) =>
      url.pathname === '/api/trainerData/nope' ? jsonResponse({ message: 'Trainer not found', statusCode: 404 }, 404) : undefined,
    );
    renderProfile('nope');
    expect(await screen.findByRole('heading', { name: 'Trainer not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse all trainers' })).toHaveAttribute('href', '/trainers');
  });

  it('shows other failures with Retry', async () => {
    let attempts = 0;
    stubApi((url) => {
      if (url.pathname !== '/api/trainerData/t1') return undefined;
      attempts += 1;
      return attempts === 1
        ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
        : jsonResponse({ trainerData: makeTrainer() });
    });
    const { user } = renderProfile();
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' })).toBeInTheDocument();
  });
});

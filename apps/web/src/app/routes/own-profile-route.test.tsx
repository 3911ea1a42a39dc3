import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TPublicTrainer } from '@spotter/shared';
import { testTrainer, testUser } from '@/testing/accounts';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { OwnProfileRoute } from './own-profile-route';

const userData = testUser({ title: 'Marathon in training', description: 'Running my first marathon in spring.' });
const trainerData = testTrainer({ title: 'Marathon in training', description: 'Running my first marathon in spring.' });

const favourite: TPublicTrainer = {
  _id: 't9',
  firstName: 'Nadia',
  lastName: 'Samir',
  title: 'Yoga teacher',
  description: '',
  picture: '/api/avatars/trainer-009.svg',
  city: 'Giza',
  country: 'Egypt',
  gender: 'female',
  price: 300,
  rating: 4.8,
  ratingCount: 23,
};

type Routes = Record<string, () => Response>;

function stubServer(routes: Routes) {
  const fetchMock = vi.fn(async (url: string) => {
    const answer = routes[url];
    return answer ? answer() : jsonResponse({ message: `No stub for ${url}`, statusCode: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const logIn = (role: 'user' | 'trainer') => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', role);
};

describe('OwnProfileRoute', () => {
  it("shows a user's details, BMI, the weight chart starting from the sign-up weight, and empty favourites", async () => {
    logIn('user');
    stubServer({
      '/api/userData': () => jsonResponse({ userData }),
      '/api/favorites': () => jsonResponse({ favorites: [] }),
      // the server records the sign-up weight as the chart's first point
      '/api/user/weights': () => jsonResponse({ weights: [{ weight: 65, recordedAt: userData.createdAt }] }),
    });
    renderWithProviders(<OwnProfileRoute role="user" />, { route: '/user/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Mona Adel' })).toBeInTheDocument();
    expect(screen.getByText('Marathon in training')).toBeInTheDocument();
    expect(screen.getByText('(+2) 01012345678')).toBeInTheDocument();
    expect(screen.queryByText('Go to profile settings to edit your Title')).not.toBeInTheDocument();
    expect(screen.getByText('Cairo, Egypt')).toBeInTheDocument();
    expect(screen.getByText('You are Normal weight')).toBeInTheDocument();
    expect(screen.getByText('22.49')).toBeInTheDocument();
    expect(await screen.findAllByTestId('weight-point')).toHaveLength(1);
    expect(screen.getByText('One weight saved: 65 kg on 1 Jan 2025.')).toBeInTheDocument();
    expect(screen.queryByText('Save your weight in Settings to start your chart')).not.toBeInTheDocument();
    expect(await screen.findByText('No favourite trainers yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse trainers' })).toHaveAttribute('href', '/trainers');
    const nav = screen.getByRole('navigation', { name: 'Account' });
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/user/settings');
    expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('href', '/user/chatOfUser');
  });

  it('draws only what the server lists: no weights yet is the prompt to save one, not a point made up from the account', async () => {
    logIn('user');
    stubServer({
      '/api/userData': () => jsonResponse({ userData }),
      '/api/favorites': () => jsonResponse({ favorites: [] }),
      '/api/user/weights': () => jsonResponse({ weights: [] }),
    });
    renderWithProviders(<OwnProfileRoute role="user" />, { route: '/user/profile' });

    expect(await screen.findByText('Save your weight in Settings to start your chart')).toBeInTheDocument();
    expect(screen.queryAllByTestId('weight-point')).toHaveLength(0);
    // the BMI still reads the account's weight
    expect(screen.getByText('22.49')).toBeInTheDocument();
  });

  it("lists the user's favourite trainers and draws the saved weights", async () => {
    logIn('user');
    const fetchMock = stubServer({
      '/api/userData': () => jsonResponse({ userData }),
      '/api/favorites': () => jsonResponse({ favorites: ['t9'] }),
      '/api/trainers?ids=t9&limit=100': () => jsonResponse({ viewAllTrainers: [favourite], total: 1 }),
      '/api/user/weights': () =>
        jsonResponse({
          weights: [
            { weight: 66, recordedAt: '2025-01-05T10:00:00.000Z' },
            { weight: 65, recordedAt: '2025-02-05T10:00:00.000Z' },
          ],
        }),
    });
    renderWithProviders(<OwnProfileRoute role="user" />, { route: '/user/profile' });

    const favourites = await screen.findByRole('list', { name: 'Favourite trainers' });
    const card = within(favourites).getByRole('link', { name: 'View profile' });
    expect(card).toHaveAttribute('href', '/trainer/profile/t9');
    expect(card).toHaveAccessibleDescription('Nadia Samir');
    expect(within(screen.getByLabelText('Your numbers')).getByText('Favourite trainers').parentElement).toHaveTextContent(
      /^Favourite trainers1$/,
    );
    expect(await screen.findAllByTestId('weight-point')).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/trainers?ids=t9&limit=100', expect.anything());
  });

  it('a heart turned off takes the trainer out of the favourites at once, on the server and in `favorites`', async () => {
    logIn('user');
    const fetchMock = stubServer({
      '/api/userData': () => jsonResponse({ userData }),
      '/api/favorites': () => jsonResponse({ favorites: ['t9'] }),
      '/api/favorites/t9': () => jsonResponse({ favorites: [] }),
      '/api/trainers?ids=t9&limit=100': () => jsonResponse({ viewAllTrainers: [favourite], total: 1 }),
      '/api/user/weights': () => jsonResponse({ weights: [] }),
    });
    const { user } = renderWithProviders(<OwnProfileRoute role="user" />, { route: '/user/profile' });

    const favourites = await screen.findByRole('list', { name: 'Favourite trainers' });
    await user.click(within(favourites).getByRole('button', { name: 'Remove Nadia from favourites' }));

    expect(await screen.findByText('No favourite trainers yet')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Your numbers')).getByText('Favourite trainers').parentElement).toHaveTextContent(
      /^Favourite trainers0$/,
    );
    expect(fetchMock).toHaveBeenCalledWith('/api/favorites/t9', expect.objectContaining({ method: 'DELETE' }));
    expect(JSON.parse(localStorage.getItem('favorites') ?? 'null')).toEqual([]);
  });

  it("shows a trainer's numbers from data", async () => {
    logIn('trainer');
    stubServer({
      '/api/trainerData': () => jsonResponse({ trainerData }),
      '/api/trainer/reviews/t1': () => jsonResponse({ allReviews: [] }),
      '/api/trainerData/t1': () => jsonResponse({ trainerData: { ...favourite, _id: 't1', subscribers: 0 } }),
    });
    renderWithProviders(<OwnProfileRoute role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Omar Farouk' })).toBeInTheDocument();
    expect(screen.getByText('4.5')).toBeInTheDocument();
    expect(screen.getByText('$250')).toBeInTheDocument();
    expect(await screen.findByText('No reviews yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your public profile' })).toHaveAttribute('href', '/trainer/profile/t1');
    // a trainer's dashboard carries no trainee content
    expect(screen.queryByRole('heading', { name: 'Workout plan ideas' })).not.toBeInTheDocument();
  });

  it('tells a trainer whose profile was hidden after reports, and neither reads nor links to the public page', async () => {
    logIn('trainer');
    const fetchMock = stubServer({
      '/api/trainerData': () => jsonResponse({ trainerData: { ...trainerData, profileHidden: true } }),
      '/api/trainer/reviews/t1': () => jsonResponse({ allReviews: [] }),
    });
    renderWithProviders(<OwnProfileRoute role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Omar Farouk' })).toBeInTheDocument();
    const notice = screen.getByText('Your public profile is hidden').closest('[role="status"]');
    expect(notice).not.toBeNull();
    expect(notice).toHaveTextContent('people cannot find it in the list or open its page');
    expect(screen.getByText('Marathon in training')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See your public profile' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/trainerData/t1');
  });

  it('shows the failure with Retry, and Retry loads the profile', async () => {
    logIn('trainer');
    let calls = 0;
    stubServer({
      '/api/trainerData': () =>
        ++calls === 1 ? jsonResponse({ message: 'Database unavailable', statusCode: 503 }, 503) : jsonResponse({ trainerData }),
      '/api/trainer/reviews/t1': () => jsonResponse({ allReviews: [] }),
      '/api/trainerData/t1': () => jsonResponse({ trainerData: { ...favourite, _id: 't1', subscribers: 0 } }),
    });
    const { user } = renderWithProviders(<OwnProfileRoute role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Omar Farouk' })).toBeInTheDocument();
  });

  it('offers to log in again when the session is over', async () => {
    logIn('user');
    stubServer({
      '/api/userData': () => jsonResponse({ message: 'Your session has expired, please log in again', statusCode: 401 }, 401),
    });
    renderWithProviders(<OwnProfileRoute role="user" />, { route: '/user/profile' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has expired, please log in again');
    expect(screen.getByRole('link', { name: 'Log in again' })).toHaveAttribute('href', '/users/login');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('sends a token of the other role to its own profile, loading nothing and showing no error', async () => {
    logIn('user');
    const fetchMock = stubServer({});
    const { router } = renderWithProviders(<OwnProfileRoute role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

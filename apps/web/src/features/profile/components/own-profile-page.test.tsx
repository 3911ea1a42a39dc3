import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TOwnAccount, TOwnTrainer, TPublicTrainer } from '@spotter/shared';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { OwnProfilePage } from './own-profile-page';

const userData: TOwnAccount = {
  _id: 'u1',
  role: 'user',
  firstName: 'Mona',
  lastName: 'Adel',
  email: 'mona@example.com',
  emailVerified: true,
  title: 'Marathon in training',
  description: 'Running my first marathon in spring.',
  phone: '01012345678',
  gender: 'female',
  age: 30,
  height: 170,
  weight: 65,
  picture: '',
  city: 'Cairo',
  country: 'Egypt',
  website: '',
  notifications: { account: true, marketing: false },
  createdAt: '2025-01-01T00:00:00.000Z',
};

const trainerData: TOwnTrainer = { ...userData, _id: 't1', role: 'trainer', firstName: 'Omar', lastName: 'Farouk', price: 250, rating: 4.5, ratingCount: 2 };

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

describe('OwnProfilePage', () => {
  it("shows a user's details, BMI, empty weight chart and empty favourites", async () => {
    logIn('user');
    stubServer({
      '/api/userData': () => jsonResponse({ userData }),
      '/api/favorites': () => jsonResponse({ favorites: [] }),
      '/api/user/weights': () => jsonResponse({ weights: [] }),
    });
    renderWithProviders(<OwnProfilePage role="user" />, { route: '/user/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Mona Adel' })).toBeInTheDocument();
    expect(screen.getByText('Marathon in training')).toBeInTheDocument();
    expect(screen.getByText('(+2) 01012345678')).toBeInTheDocument();
    expect(screen.getByText('Cairo, Egypt')).toBeInTheDocument();
    expect(screen.getByText('You are Normal weight')).toBeInTheDocument();
    expect(screen.getByText('22.49')).toBeInTheDocument();
    expect(await screen.findByText('Save your weight in Settings to start your chart')).toBeInTheDocument();
    expect(await screen.findByText('No favourite trainers yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse trainers' })).toHaveAttribute('href', '/trainers');
    const nav = screen.getByRole('navigation', { name: 'Account' });
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/user/settings');
    expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('href', '/user/chatOfUser');
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
    renderWithProviders(<OwnProfilePage role="user" />, { route: '/user/profile' });

    const card = await screen.findByRole('link', { name: /Nadia Samir/ });
    expect(card).toHaveAttribute('href', '/trainer/profile/t9');
    expect(await screen.findAllByTestId('weight-point')).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/trainers?ids=t9&limit=100', expect.anything());
  });

  it("shows a trainer's numbers from data", async () => {
    logIn('trainer');
    stubServer({
      '/api/trainerData': () => jsonResponse({ trainerData }),
      '/api/trainer/reviews/t1': () => jsonResponse({ allReviews: [] }),
      '/api/trainerData/t1': () => jsonResponse({ trainerData: { ...favourite, _id: 't1', subscribers: 0 } }),
    });
    renderWithProviders(<OwnProfilePage role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Omar Farouk' })).toBeInTheDocument();
    expect(screen.getByText('4.5')).toBeInTheDocument();
    expect(screen.getByText('$250')).toBeInTheDocument();
    expect(await screen.findByText('No reviews yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your public profile' })).toHaveAttribute('href', '/trainer/profile/t1');
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
    const { user } = renderWithProviders(<OwnProfilePage role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Omar Farouk' })).toBeInTheDocument();
  });

  it('offers to log in again when the session is over', async () => {
    logIn('user');
    stubServer({
      '/api/userData': () => jsonResponse({ message: 'Your session has expired, please log in again', statusCode: 401 }, 401),
    });
    renderWithProviders(<OwnProfilePage role="user" />, { route: '/user/profile' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has expired, please log in again');
    expect(screen.getByRole('link', { name: 'Log in again' })).toHaveAttribute('href', '/users/login');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("does not load anyone's data for a token of the other role", async () => {
    logIn('user');
    const fetchMock = stubServer({});
    renderWithProviders(<OwnProfilePage role="trainer" />, { route: '/trainer/profile' });

    expect(await screen.findByRole('alert')).toHaveTextContent('This page is for trainers.');
    expect(screen.getByRole('link', { name: 'Go to my profile' })).toHaveAttribute('href', '/user/profile');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

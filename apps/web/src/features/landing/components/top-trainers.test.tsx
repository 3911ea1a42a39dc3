import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { TopTrainers } from './top-trainers';

const trainer = (id: string, firstName: string, lastName: string, rating: number, ratingCount: number, price: number) => ({
  _id: id,
  firstName,
  lastName,
  title: 'Strength coach',
  description: 'Ten years of coaching.',
  picture: `/api/avatars/${id}.svg`,
  city: 'Cairo',
  country: 'Egypt',
  gender: 'female',
  price,
  rating,
  ratingCount,
});

const answer = (viewAllTrainers: unknown[]) =>
  jsonResponse({ viewAllTrainers, total: viewAllTrainers.length, totalIsEstimate: false, page: 1, limit: 4 });

describe('TopTrainers', () => {
  it('asks for the four best-rated trainers and links each card to the public profile', async () => {
    const fetchMock = vi.fn(async () =>
      answer([
        trainer('t1', 'Nadia', 'Kamal', 4.96, 23, 150),
        trainer('t2', 'Omar', 'Farouk', 4.8, 10, 400),
        trainer('t3', 'Mona', 'Ragab', 4.78, 9, 510),
        trainer('t4', 'Rana', 'Fathy', 0, 0, 1200),
      ]),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<TopTrainers />);

    expect(screen.getByRole('region', { name: 'Meet our top-rated coaches' })).toHaveAttribute('aria-busy', 'true');
    const links = await screen.findAllByRole('link', { name: 'View profile' });

    expect(fetchMock).toHaveBeenCalledWith('/api/trainers?sort=rating&limit=4', expect.anything());
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/trainer/profile/t1',
      '/trainer/profile/t2',
      '/trainer/profile/t3',
      '/trainer/profile/t4',
    ]);
    expect(links[0]).toHaveAccessibleDescription('Nadia Kamal');
    const [first, , , last] = screen.getAllByRole('article');
    expect(first).toHaveTextContent('Rated 5.0 out of 5 from 23 reviews');
    expect(first).toHaveTextContent('$150 / session');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Nadia Kamal',
      'Omar Farouk',
      'Mona Ragab',
      'Rana Fathy',
    ]);
    expect(last).toHaveTextContent('New, no reviews yet');
    expect(last).toHaveTextContent('$1,200 / session');
    // The same heart as on the list: a favourite from the landing page shows everywhere.
    expect(within(first).getByRole('button', { name: 'Add Nadia to favourites' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('steps aside quietly when the call fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Boom', statusCode: 500 }, 500)),
    );
    renderWithProviders(<TopTrainers />);

    expect(screen.getByRole('heading', { name: 'Meet our top-rated coaches' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Meet our top-rated coaches' })).not.toBeInTheDocument());
  });

  it('points coaches to the sign-up when no trainer is listed yet', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer([])),
    );
    renderWithProviders(<TopTrainers />);

    expect(await screen.findByRole('link', { name: 'Join Spotter as a trainer' })).toHaveAttribute('href', '/trainers/register');
  });
});

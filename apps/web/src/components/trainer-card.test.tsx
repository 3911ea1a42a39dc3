import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { makeTrainer, stubApi } from '@/testing/fake-api';
import { TrainerCard } from './trainer-card';

describe('TrainerCard', () => {
  it('shows the trainer as docs/product.md#design asks and links to the profile', () => {
    renderWithProviders(<TrainerCard trainer={makeTrainer({ rating: 4.8, ratingCount: 23 })} />);

    expect(screen.getByRole('heading', { name: 'Nadia Samir' })).toBeInTheDocument();
    expect(screen.getByText('Strength coach')).toBeInTheDocument();
    expect(screen.getByText('Cairo')).toBeInTheDocument();
    expect(screen.getByText('Rated 4.8 out of 5 from 23 reviews')).toBeInTheDocument();
    expect(screen.getByText('$150')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).toHaveAttribute('src', '/api/avatars/trainer-001.svg?g=f');
    const link = screen.getByRole('link', { name: 'View profile' });
    expect(link).toHaveAttribute('href', '/trainer/profile/t1');
    expect(link).toHaveAccessibleDescription('Nadia Samir');
  });

  it("shows the 'Verified coach' badge in words only for a verified coach, its icon hidden", () => {
    const { unmount } = renderWithProviders(<TrainerCard trainer={makeTrainer({ verified: true })} />);
    const badge = screen.getByText('Verified coach');
    expect(badge.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    unmount();
    renderWithProviders(<TrainerCard trainer={makeTrainer({ verified: false })} />);
    expect(screen.queryByText('Verified coach')).not.toBeInTheDocument();
  });

  it('loads the picture lazily, or at once and first when the card opens a list', () => {
    const { unmount } = renderWithProviders(<TrainerCard trainer={makeTrainer()} />);
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).toHaveAttribute('loading', 'lazy');
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).not.toHaveAttribute('fetchpriority');
    unmount();
    renderWithProviders(<TrainerCard trainer={makeTrainer()} isFirstInView />);
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).toHaveAttribute('loading', 'eager');
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).toHaveAttribute('fetchpriority', 'high');
  });

  it('toggles the heart and rewrites `favorites` in local storage each time', async () => {
    const fetchMock = stubApi();
    localStorage.setItem('favorites', JSON.stringify(['other']));
    const { user } = renderWithProviders(<TrainerCard trainer={makeTrainer()} />);

    const heart = screen.getByRole('button', { name: 'Add Nadia to favourites' });
    expect(heart).toHaveAttribute('aria-pressed', 'false');

    await user.click(heart);
    const pressed = await screen.findByRole('button', { name: 'Remove Nadia from favourites' });
    expect(pressed).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(localStorage.getItem('favorites') ?? '[]')).toEqual(['other', 't1']);

    await user.click(pressed);
    expect(await screen.findByRole('button', { name: 'Add Nadia to favourites' })).toHaveAttribute('aria-pressed', 'false');
    expect(JSON.parse(localStorage.getItem('favorites') ?? '[]')).toEqual(['other']);
    // A visitor's favourites stay in the browser.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('one heart turns every card of that trainer on screen', async () => {
    stubApi();
    const { user } = renderWithProviders(
      <ul>
        <li>
          <TrainerCard trainer={makeTrainer()} />
        </li>
        <li>
          <TrainerCard trainer={makeTrainer()} />
        </li>
      </ul>,
    );
    await user.click(screen.getAllByRole('button', { name: 'Add Nadia to favourites' })[0]);
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Remove Nadia from favourites' })).toHaveLength(2));
  });

  it('shows the initials when the trainer has no photo', () => {
    renderWithProviders(<TrainerCard trainer={makeTrainer({ picture: '' })} />);
    expect(screen.getByRole('img', { name: 'Nadia Samir' })).toHaveTextContent('NS');
  });

  it('says "New" rather than a rating of 0 when nobody reviewed yet', () => {
    renderWithProviders(<TrainerCard trainer={makeTrainer({ rating: 0, ratingCount: 0 })} />);
    expect(screen.getByText('New')).toBeInTheDocument();
    expect(screen.queryByText('0.0')).not.toBeInTheDocument();
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/toast';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { callsOf, makeReview, makeTrainer, stubApi } from '../testing/fake-api';
import { TrainerProfilePage } from './trainer-profile-page';

vi.mock('@/lib/toast', () => ({ notify: { success: vi.fn(), error: vi.fn(), message: vi.fn() } }));

const distribution = { '1': 0, '2': 0, '3': 1, '4': 0, '5': 12 };

function profileApi({ trainer = makeTrainer(), reviews = [makeReview()] } = {}) {
  return stubApi((url) => {
    if (url.pathname === '/api/trainerData/t1') return jsonResponse({ trainerData: trainer });
    if (url.pathname === '/api/trainer/reviews/t1/distribution') return jsonResponse({ distribution });
    if (url.pathname === '/api/trainer/reviews/t1') return jsonResponse({ allReviews: reviews });
    if (url.pathname === '/api/favorites') return jsonResponse({ favorites: [] });
    return undefined;
  });
}

const renderProfile = (id = 't1') =>
  renderWithProviders(<TrainerProfilePage />, { route: `/trainer/profile/${id}`, path: '/trainer/profile/:id' });

describe('TrainerProfilePage', () => {
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
    expect(within(breakdown).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '5 stars: 12',
      '4 stars: 0',
      '3 stars: 1',
      '2 stars: 0',
      '1 star: 0',
    ]);
  });

  it('gives a visitor the role toasts for booking and chat', async () => {
    profileApi();
    const { user } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });

    await user.click(screen.getAllByRole('button', { name: 'Book now!' })[0]);
    expect(notify.message).toHaveBeenCalledWith('Log in to start booking Trainers!');
    await user.click(screen.getByRole('button', { name: 'Message Nadia' }));
    expect(notify.message).toHaveBeenCalledWith('Only users can message trainers!');
  });

  it('tells a trainer that trainers cannot book or message trainers', async () => {
    localStorage.setItem('token', 'header.payload.signature');
    localStorage.setItem('userType', 'trainer');
    profileApi();
    const { user } = renderProfile();
    await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' });

    await user.click(screen.getAllByRole('button', { name: 'Book now!' })[0]);
    expect(notify.error).toHaveBeenCalledWith("Trainers can't book other Trainers!");
    await user.click(screen.getByRole('button', { name: 'Message Nadia' }));
    expect(notify.error).toHaveBeenCalledWith("Trainers can't message other trainers!");
  });

  it('shows a logged-in user the reviews as text and the form', async () => {
    localStorage.setItem('token', 'header.payload.signature');
    localStorage.setItem('userType', 'user');
    profileApi({ reviews: [makeReview({ comment: '<img src=x onerror=alert(1)> strong coach' })] });
    renderProfile();

    const reviews = await screen.findByRole('list', { name: 'Reviews' });
    expect(within(reviews).getByText('Mariam Hassan')).toBeInTheDocument();
    expect(within(reviews).getByText('<img src=x onerror=alert(1)> strong coach')).toBeInTheDocument();
    expect(within(reviews).queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Post review' })).toBeInTheDocument();
    expect(screen.queryByText(/Please Login to Review/)).not.toBeInTheDocument();
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

import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { HomePage } from './home-page';

describe('HomePage', () => {
  it('renders every section of docs/product.md#home without a spinner, with one h1 and headings in order', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ viewAllTrainers: [], total: 0, totalIsEstimate: false, page: 1, limit: 4 })),
    );
    renderWithProviders(<HomePage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Shape Your Ideal Body' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Gym Schedule' }, { timeout: 5000 })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Join Spotter as a trainer' });

    const headings = screen.getAllByRole('heading').map((h) => [Number(h.tagName[1]), h.textContent]);
    expect(headings.filter(([level]) => level === 1)).toHaveLength(1);
    expect(headings.filter(([level]) => level === 2).map(([, text]) => text)).toEqual([
      'Helping people train with a coach since 2010',
      'Every kind of training',
      'A coach for every goal',
      'Gym Schedule',
      'Meet our top-rated coaches',
      'From first message to first rep',
      'Trusted by Our Customers',
      'Latest Gym Blog & News',
      'Grow your client list with Spotter',
    ]);
    // No level is skipped on the way down.
    headings.forEach(([level], index) => {
      if (index > 0) expect(level).toBeLessThanOrEqual(Number(headings[index - 1][0]) + 1);
    });
    expect(screen.getAllByText(/Flex Muscle|Strength|Physical Fitness|Fat Loss/, { selector: 'h3' })).toHaveLength(4);
    expect(screen.getAllByRole('blockquote')).toHaveLength(6);
  });

  it('promises only what the product does: free cancellation up to 24 h ahead, the 10% fee', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ viewAllTrainers: [], total: 0, totalIsEstimate: false, page: 1, limit: 4 })),
    );
    renderWithProviders(<HomePage />);
    expect(screen.getByText('Free cancellation up to 24 h ahead')).toBeInTheDocument();
    expect(screen.queryByText('Free cancellation')).not.toBeInTheDocument();
    expect(screen.queryByText(/certified/i)).not.toBeInTheDocument();
    expect(await screen.findByText(/less a 10% fee/, {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { BlogPostPage } from './blog-post-page';

describe('BlogPostPage', () => {
  it('shows the article of the address', () => {
    renderWithProviders(<BlogPostPage />, { route: '/blog/fat-loss-without-crash-diets', path: '/blog/:slug' });

    expect(
      screen.getByRole('heading', { level: 1, name: 'Fat loss without crash diets: what actually works' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'The habits that matter' })).toBeInTheDocument();
    expect(screen.getByText('5 Aug 2025')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(2);
  });

  it('says so when the article does not exist, with a way back to the blog', () => {
    renderWithProviders(<BlogPostPage />, { route: '/blog/no-such-post', path: '/blog/:slug' });

    expect(screen.getByRole('heading', { level: 1, name: 'Post not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the blog' })).toHaveAttribute('href', '/blog');
  });
});

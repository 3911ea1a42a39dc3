import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { blogPosts } from '@/lib/blog-posts';
import { renderWithProviders } from '@/testing/render';
import { LatestPosts } from './latest-posts';

describe('LatestPosts', () => {
  it('shows three cards linking to their articles', () => {
    renderWithProviders(<LatestPosts />);
    const titles = screen.getAllByRole('heading', { level: 3 });
    expect(titles).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Progressive overload, explained: how to get stronger every week' })).toHaveAttribute(
      'href',
      '/blog/progressive-overload-explained',
    );
  });

  it('shows the three newest articles of the blog, with their dates', () => {
    renderWithProviders(<LatestPosts />);
    const newest = blogPosts.slice(0, 3);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(newest.map((post) => post.title));
    expect(screen.getAllByRole('article')[0]).toHaveTextContent('18 Sept 2025');
  });
});

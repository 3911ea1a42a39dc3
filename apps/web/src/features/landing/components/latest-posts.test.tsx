import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
// Test-only look across features: the landing keeps its own copy of the teasers (features do not
// import each other), and this checks the copy still matches the blog.
import { blogPosts } from '@/features/static-pages/data/blog-posts';
import { renderWithProviders } from '@/testing/render';
import { latestPosts } from '../data/latest-posts';
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

  it('matches the three newest articles of the blog', () => {
    expect(latestPosts).toEqual(
      blogPosts.slice(0, 3).map(({ slug, title, excerpt, category, publishedOn, cover }) => ({
        slug,
        title,
        excerpt,
        category,
        publishedOn,
        cover,
      })),
    );
  });
});

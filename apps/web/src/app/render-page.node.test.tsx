// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { listAnswer, makeTrainer } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { blogPosts } from '@/lib/blog-posts';
import { configureRenderer, renderPage } from './render-page';

/**
 * The server renders in Node: no window, document or storage. A component that reads one of them
 * while rendering a public page fails here (render-page.test.tsx renders inside jsdom, which has them).
 */
const trainer = makeTrainer({ _id: 't1', firstName: 'Nadia', lastName: 'Samir' });

configureRenderer({
  fetchApi: async (url) => {
    const { pathname } = new URL(url, 'http://localhost');
    if (pathname === '/api/trainers') return jsonResponse(listAnswer([trainer]));
    if (pathname === '/api/trainerData/t1') return jsonResponse({ trainerData: trainer });
    if (pathname === '/api/trainer/reviews/t1/distribution')
      return jsonResponse({ distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } });
    return jsonResponse({ message: 'Not found', statusCode: 404 }, 404);
  },
});

const pages: Array<[string, string]> = [
  ['/', 'Spotter · Find your personal trainer'],
  ['/trainers?city=Cairo&sort=price_desc', 'Find a trainer · Spotter'],
  ['/trainer/profile/t1', 'Nadia Samir · Spotter'],
  ['/BMI', 'BMI Calculator · Spotter'],
  ['/users/login', 'Welcome back · Spotter'],
  ['/trainers/register', 'Join Spotter as a trainer · Spotter'],
  ['/reset-password?token=abc', ''],
  ['/blog', ''],
  [`/blog/${blogPosts[1].slug}`, ''],
];

describe('rendering in Node, as the server does', () => {
  it('has no window to read', () => {
    expect(typeof window).toBe('undefined');
  });

  it.each(pages)('renders %s', async (url, title) => {
    const page = await renderPage({ url, cookies: '' });
    expect(page?.status).toBe(200);
    expect(page?.root).toContain('<main id="main"');
    if (title) expect(page?.head).toContain(`<title>${title}</title>`);
  });

  it('answers 404 for a profile of nobody, and leaves other hosts’ addresses alone', async () => {
    expect((await renderPage({ url: '/trainer/profile/nobody' }))?.status).toBe(404);
    expect(await renderPage({ url: '//trainers' })).toBeNull();
    expect(await renderPage({ url: 'http://elsewhere.example/trainers' })).toBeNull();
  });
});

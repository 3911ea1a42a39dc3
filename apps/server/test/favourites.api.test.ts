import { describe, expect, it } from 'vitest';
import { NEWSLETTER_MSG, SERVER_MSG } from '@spotter/shared';
import { createAccount, insertTrainer, uniqueEmail, useTestApp } from './helper';

const t = await useTestApp();
const call = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? { authorization: token } : {}, ...(payload ? { payload } : {}) });

describe('favourites on the server', () => {
  it('adds, lists and removes favourites; adding twice keeps one', async () => {
    const u = await createAccount(t, 'user');
    const a = await insertTrainer(t);
    const b = await insertTrainer(t);
    expect((await call('GET', '/api/favorites', u.token)).json()).toEqual({ favorites: [] });
    expect((await call('PUT', `/api/favorites/${a.id}`, u.token)).json().favorites).toEqual([a.id]);
    await call('PUT', `/api/favorites/${a.id}`, u.token);
    await call('PUT', `/api/favorites/${b.id}`, u.token);
    expect((await call('GET', '/api/favorites', u.token)).json().favorites).toEqual([a.id, b.id]);
    expect((await call('DELETE', `/api/favorites/${a.id}`, u.token)).json().favorites).toEqual([b.id]);
  });

  it('keeps each user’s list their own', async () => {
    const u1 = await createAccount(t, 'user');
    const u2 = await createAccount(t, 'user');
    const a = await insertTrainer(t);
    await call('PUT', `/api/favorites/${a.id}`, u1.token);
    expect((await call('GET', '/api/favorites', u2.token)).json().favorites).toEqual([]);
  });

  it('merges the browser’s list at login, skipping ids that are not trainers', async () => {
    const u = await createAccount(t, 'user');
    const a = await insertTrainer(t);
    const b = await insertTrainer(t);
    await call('PUT', `/api/favorites/${a.id}`, u.token);
    const res = await call('POST', '/api/favorites/merge', u.token, { favorites: [b.id, a.id, 'junk', u.id] });
    expect(res.json().favorites).toEqual([a.id, b.id]);
  });

  it('answers 404 for an unknown trainer, 401 without a token, 403 for trainers', async () => {
    const u = await createAccount(t, 'user');
    const tr = await createAccount(t, 'trainer');
    const a = await insertTrainer(t);
    const unknown = await call('PUT', '/api/favorites/6f1c2b9e-0000-4000-8000-000000000000', u.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(SERVER_MSG.trainerNotFound);
    expect((await call('PUT', '/api/favorites/nope', u.token)).statusCode).toBe(404);
    expect((await call('PUT', `/api/favorites/${a.id}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/favorites')).statusCode).toBe(401);
    expect((await call('PUT', `/api/favorites/${a.id}`, tr.token)).statusCode).toBe(403);
  });
});

describe('newsletter', () => {
  it('stores an address once and says so every time', async () => {
    const email = uniqueEmail('news');
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', '/api/newsletter', undefined, { email: email.toUpperCase() });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(NEWSLETTER_MSG.subscribed);
    }
    const { newsletterSubscribers } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    const rows = await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    expect(rows).toHaveLength(1);
  });

  it('answers 400 for a bad address', async () => {
    const res = await call('POST', '/api/newsletter', undefined, { email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toBe('Invalid email format');
  });
});

describe('generated avatars', () => {
  it('draws the same SVG for the same seed, cached for a year', async () => {
    const a = await t.app.inject('/api/avatars/trainer-001.svg?g=f');
    const b = await t.app.inject('/api/avatars/trainer-001.svg?g=f');
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toContain('image/svg+xml');
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(a.body).toBe(b.body);
    expect(a.body).not.toBe((await t.app.inject('/api/avatars/trainer-002.svg?g=f')).body);
    expect((await t.app.inject('/api/avatars/..%2Fetc.svg')).statusCode).toBe(400);
  });

  it('may be shown by pages on other origins (PUBLIC_URL may differ from the page, CORS_ORIGINS clients)', async () => {
    const res = await t.app.inject('/api/avatars/trainer-001.svg?g=f');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // API answers keep the default
    expect((await t.app.inject('/api/health')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

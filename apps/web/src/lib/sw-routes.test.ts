import { describe, expect, it } from 'vitest';
import { kindOf, notificationTarget, parsePush, personalCacheKey, sha256Hex } from './sw-routes';

describe('what the service worker keeps (docs/decisions/048-service-worker.md)', () => {
  it("keeps a visitor's public reads for everyone", () => {
    expect(kindOf('/api/trainers', false)).toBe('public');
    expect(kindOf('/api/trainerData/abc', false)).toBe('public');
    expect(kindOf('/api/trainer/reviews/abc', false)).toBe('public');
    expect(kindOf('/api/trainer/reviews/abc/distribution', false)).toBe('public');
    // free times change by the minute; personal reads without a token are not kept at all
    expect(kindOf('/api/trainers/abc/slots', false)).toBe('network');
    expect(kindOf('/api/bookings', false)).toBe('network');
    expect(kindOf('/api/userData', false)).toBe('network');
  });

  it("keeps a signed-in person's reads, the public ones too (they mark the person's own rows), as personal", () => {
    for (const path of [
      '/api/bookings',
      '/api/chats/abc',
      '/api/conversations',
      '/api/userData',
      '/api/trainerData',
      '/api/trainers',
      '/api/trainer/availability',
      '/api/favorites',
      '/api/waitlist',
    ]) {
      expect(kindOf(path, true), path).toBe('personal');
    }
    for (const path of [
      '/api/trainers/abc/slots',
      '/api/console/people',
      '/api/push/subscriptions',
      '/api/health/ready',
      '/api/auth/config',
    ]) {
      expect(kindOf(path, true), path).toBe('network');
    }
  });

  it('keeps pictures whose address changes with their content', () => {
    expect(kindOf(`/api/images/${'a'.repeat(64)}.webp`, false)).toBe('picture');
    expect(kindOf('/api/avatars/jane.svg', true)).toBe('picture');
    expect(kindOf('/assets/hero-abc123.webp', false)).toBe('picture');
    expect(kindOf('/api/images/other.png', false)).toBe('network');
  });

  it("keys a personal answer by the token's SHA-256, never the token", async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const a = await personalCacheKey('https://spotter.test/api/bookings?page=2', 'Bearer token-a');
    const b = await personalCacheKey('https://spotter.test/api/bookings?page=2', 'Bearer token-b');
    expect(a).toMatch(/^https:\/\/spotter\.test\/api\/bookings\?page=2&spotter-token=[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('token-a');
  });
});

describe('push messages', () => {
  const payload = { kind: 'message', title: 'Anna', body: 'See you at 6', url: '/user/chatOfUser', tag: 'chat-1', badge: 2 };

  it('reads a payload Spotter sends', () => {
    expect(parsePush(() => payload)).toEqual(payload);
  });

  it('ignores anything else', () => {
    expect(parsePush(() => ({ ...payload, kind: 'spam' }))).toBeUndefined();
    expect(parsePush(() => ({ title: 'x' }))).toBeUndefined();
    expect(parsePush(() => undefined)).toBeUndefined();
    expect(
      parsePush(() => {
        throw new SyntaxError('not JSON');
      }),
    ).toBeUndefined();
  });

  it('opens only pages of this site', () => {
    const origin = 'https://spotter.test';
    expect(notificationTarget('/user/chatOfUser?with=1', origin)).toBe('https://spotter.test/user/chatOfUser?with=1');
    expect(notificationTarget('//evil.test/x', origin)).toBe('https://spotter.test/');
    expect(notificationTarget('https://evil.test/', origin)).toBe('https://spotter.test/');
    expect(notificationTarget(undefined, origin)).toBe('https://spotter.test/');
  });
});

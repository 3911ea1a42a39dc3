import { describe, expect, it, vi } from 'vitest';
import { PERSONAL_CACHE } from './cache-names';
import { clearPersonalCaches } from './logout';

describe('clearPersonalCaches (docs/product.md#installable-and-offline)', () => {
  it('deletes the personal cache and tells the service worker, which drops answers on their way', async () => {
    const caches = { delete: vi.fn(async () => true) };
    const postMessage = vi.fn();
    await clearPersonalCaches({ caches, serviceWorker: { controller: { postMessage } } });
    expect(PERSONAL_CACHE).toBe('spotter-personal');
    expect(caches.delete).toHaveBeenCalledWith('spotter-personal');
    expect(postMessage).toHaveBeenCalledWith({ type: 'logout' });
  });

  it('does nothing without caches or a controlling service worker, and never fails logout', async () => {
    await expect(clearPersonalCaches({ caches: undefined, serviceWorker: undefined })).resolves.toBeUndefined();
    await expect(clearPersonalCaches({ caches: undefined, serviceWorker: { controller: null } })).resolves.toBeUndefined();
    const refusing = { delete: vi.fn(async () => Promise.reject(new Error('SecurityError'))) };
    await expect(clearPersonalCaches({ caches: refusing, serviceWorker: undefined })).resolves.toBeUndefined();
  });

  it('runs in a page without caches (jsdom has none)', async () => {
    await expect(clearPersonalCaches()).resolves.toBeUndefined();
  });
});

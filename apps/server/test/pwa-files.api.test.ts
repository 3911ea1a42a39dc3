import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helper';

/**
 * The installable app's files (docs/decisions/048-service-worker.md): the service worker and the
 * manifest are always asked again, so a new build reaches every browser at its next visit; the
 * manifest has its own type; the icons are cached like any root file.
 */
function fakeWebDist() {
  const dir = mkdtempSync(join(tmpdir(), 'spotter-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Spotter</title><div id="root"></div>');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'workbox-abc123.js'), 'console.log("workbox");');
  writeFileSync(join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'Spotter', start_url: '/' }));
  writeFileSync(join(dir, 'pwa-192x192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log("app");');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the installable app', async () => {
  const t = await useTestApp({ WEB_DIST: fakeWebDist() });

  it('serves the service worker and workbox uncached, as JavaScript, under the site policy', async () => {
    for (const url of ['/sw.js', '/workbox-abc123.js']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/javascript/);
      // default-src 'self' covers worker-src and the worker's own fetches
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
    }
  });

  it('serves the manifest uncached as application/manifest+json', async () => {
    const res = await t.app.inject('/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.json()).toMatchObject({ name: 'Spotter' });
  });

  it('keeps an hour for the icons and a year for hashed assets', async () => {
    const icon = await t.app.inject('/pwa-192x192.png');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject('/assets/app-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

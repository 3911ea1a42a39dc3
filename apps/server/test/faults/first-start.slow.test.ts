import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api, demoLogin, killServer, newDataDir, startServer, type ServerProcess } from './server-process';

/** A gauge of the server's Prometheus metrics, in bytes. */
async function gauge(base: string, name: string) {
  const text = await fetch(`${base}/api/metrics`).then((r) => r.text());
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /api/metrics`);
  return Number(line.split(' ')[1]);
}

const MiB = 1024 * 1024;

describe('the first start on an empty data directory (PGlite)', () => {
  it('seeds the demo data and then serves from a fresh PGlite, not the one seeding grew', { timeout: 180_000 }, async () => {
    const dataDir = newDataDir('first-start');
    let server: ServerProcess | undefined;
    try {
      server = await startServer({ dataDir, initdb: true });
      // the demo data is there
      await demoLogin(server.base, 'user', 'user@spotter.test');
      const list = await api<{ total: number }>(server.base, '/api/trainers');
      expect(list.body.total).toBeGreaterThan(0);
      // PGlite's WebAssembly memory is the server's external memory: about 150 MB on a fresh
      // instance, about 400 MB in the instance that seeded (it never shrinks)
      expect(await gauge(server.base, 'nodejs_external_memory_bytes')).toBeLessThan(250 * MiB);
    } finally {
      killServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { createFreshPgDatabase } from '../helper';
import { killServer, newDataDir, startServer, waitFor, type ServerProcess } from './server-process';
import { expectAllStored, prepareWriters, snapshot, streamWrites } from './write-stream';

/**
 * SIGKILL in the middle of a stream of writes, then a restart on the same data: every write that
 * was answered with a 2xx before the kill is still there.
 */
async function crashAndRestart(databaseUrl: string | undefined) {
  const dataDir = newDataDir('crash');
  const lockFile = join(dataDir, 'server.pid');
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ dataDir, databaseUrl });
    const writers = await prepareWriters(server.base);
    const stream = streamWrites(writers, 'crash');
    await waitFor(() => stream.acked.bookings.length >= 6 && stream.count() >= 40, 60_000, 'acknowledged writes');
    // the acknowledgements so far are certain; the kill lands while the writers keep going
    server.child.kill('SIGKILL');
    const { signal } = await server.exited;
    expect(signal).toBe('SIGKILL');
    await stream.done;
    expect(stream.serverErrors).toEqual([]);
    const acked = snapshot(stream.acked);
    if (!databaseUrl) {
      // the killed process left its lock behind: the restart must take it over
      const [pid, identity] = readFileSync(lockFile, 'utf8').split('\n');
      expect(pid).toBe(String(server.child.pid));
      // even when its pid now names another live process, as after a restart of the container or
      // machine (here: this test's own process, whose start time is not the one recorded)
      writeFileSync(lockFile, `${process.pid}\n${identity.replace(/ \d+$/, ' 1')}\n`);
    }

    server = await startServer({ dataDir, databaseUrl });
    if (!databaseUrl) expect(readFileSync(lockFile, 'utf8').split('\n')[0]).toBe(String(server.child.pid));
    // stop it cleanly, so the database can be read here (PGlite has one opener)
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    if (!databaseUrl) expect(existsSync(lockFile)).toBe(false);

    const database = await openDatabase({ url: databaseUrl, dataDir });
    try {
      await expectAllStored(database, acked);
    } finally {
      await database.close();
    }
    return acked;
  } finally {
    killServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a crash (SIGKILL) during writes', () => {
  it('PGlite: every acknowledged message, review and booking is there after a restart', { timeout: 120_000 }, async () => {
    const acked = await crashAndRestart(undefined);
    expect(acked.messages.length).toBeGreaterThan(0);
    expect(acked.reviews.length).toBeGreaterThan(0);
    expect(acked.bookings.length).toBeGreaterThanOrEqual(6);
  });

  const pgIt = process.env.TEST_DATABASE_URL ? it : it.skip;
  const fresh: Array<{ drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const f of fresh) await f.drop();
  });
  pgIt('PostgreSQL: every acknowledged message, review and booking is there after a restart', { timeout: 120_000 }, async () => {
    const pg = (await createFreshPgDatabase())!;
    fresh.push(pg);
    const acked = await crashAndRestart(pg.url);
    expect(acked.bookings.length).toBeGreaterThanOrEqual(6);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { createFreshPgDatabase } from '../helper';
import { startTcpProxy } from './tcp-proxy';

const pgDescribe = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgDescribe('a connection dropped in the middle of a transaction', () => {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  // pg emits 'error' on a client the pool has handed out; without a listener of ours that event
  // killed the process (seen as a reset HTTP connection in the outage test)
  it('fails that transaction, and the process lives on', async () => {
    const pg = (await createFreshPgDatabase())!;
    cleanup.push(() => pg.drop());
    const url = new URL(pg.url);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    cleanup.push(() => proxy.close());
    const database = await openDatabase({ url: proxy.through(pg.url) });
    cleanup.push(() => database.close().catch(() => undefined));

    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    cleanup.push(() => process.off('uncaughtException', onUncaught));

    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      inside();
      await gate; // the client is checked out and idle: no query of its own to fail
      await tx.execute(sql`select 2`);
    });
    const outcome = transaction.then(
      () => 'committed',
      () => 'failed',
    );
    await entered;
    // the drop reaches the client, still handed out, as an 'error' event
    await proxy.refuse();
    resume();
    expect(await outcome).toBe('failed');
    expect(uncaught).toEqual([]);

    await proxy.restore();
    const rows = await database.db.execute(sql`select 3 as n`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(3);
  });
});

import { sql } from 'drizzle-orm';
import type { TestApp } from '../helper';

/**
 * Answers a function that waits until `app` has handled every notification committed before the
 * call (on PostgreSQL they arrive a moment after the commit, in commit order), so an answer kept
 * next is not dropped by an earlier write's late notification. `channel` is the test's own.
 */
export async function settler(app: TestApp, channel: string): Promise<() => Promise<void>> {
  const waiting = new Map<string, () => void>();
  await app.app.events.subscribe(channel, (id) => waiting.get(id)?.());
  let n = 0;
  return async () => {
    const id = String(++n);
    const seen = new Promise<void>((resolve) => waiting.set(id, () => setImmediate(resolve)));
    await app.database.db.execute(sql`select pg_notify(${channel}, ${id})`);
    await seen;
    waiting.delete(id);
  };
}

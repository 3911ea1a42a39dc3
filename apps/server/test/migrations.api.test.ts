import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { defaultMigrationsDir, migrate } from '../src/db/migrate';
import { createFreshPgDatabase, emptyPgliteCluster } from './helper';

const allMigrations = () =>
  readdirSync(defaultMigrationsDir())
    .filter((f) => f.endsWith('.sql'))
    .sort();

describe('migrations under the advisory lock', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'three processes migrating one empty database apply each migration exactly once',
    async () => {
      const fresh = (await createFreshPgDatabase())!;
      const dbs = await Promise.all([0, 1, 2].map(() => openDatabase({ url: fresh.url })));
      try {
        // without the lock the racing transactions collide on the catalog and one of them throws
        const results = await Promise.all(dbs.map((d) => migrate(d)));
        expect(results.flat().sort()).toEqual(allMigrations());
        const rows = (await dbs[0].db.execute('select name from schema_migrations order by name')) as unknown as {
          rows: Array<{ name: string }>;
        };
        expect(rows.rows.map((r) => r.name)).toEqual(allMigrations());
      } finally {
        await Promise.all(dbs.map((d) => d.close()));
        await fresh.drop();
      }
    },
  );

  it('applies every migration to an empty PGlite, then nothing on a second run', async () => {
    const d = await openDatabase({ inMemory: true, loadDataDir: await emptyPgliteCluster() });
    try {
      expect(await migrate(d)).toEqual(allMigrations());
      expect(await migrate(d)).toEqual([]);
    } finally {
      await d.close();
    }
  });
});

import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedBulkTrainers, seedIfEmpty } from './db/seed';
import { lockDataDir } from './lib/data-dir-lock';

/**
 * `npm run seed`: migrates and seeds the configured database when it is empty.
 * `npm run seed -- --trainers 100000` also adds that many verified trainers, for benchmarks.
 */
const { values } = parseArgs({ options: { trainers: { type: 'string' } } });
const bulk = values.trainers ? Number(values.trainers) : 0;
if (!Number.isInteger(bulk) || bulk < 0 || bulk > 2_000_000) {
  console.error('--trainers must be a whole number from 0 to 2000000');
  process.exit(1);
}
const config = loadConfig();
const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database);
  console.log((await seedIfEmpty(database.db)) ? 'Seeded demo data.' : 'The database already has data; demo data left as it is.');
  if (bulk) {
    const started = Date.now();
    await seedBulkTrainers(database.db, bulk);
    console.log(`Added up to ${bulk} trainers in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
} finally {
  await database.close();
  unlock();
}

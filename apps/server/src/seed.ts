import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './db/seed';
import { lockDataDir } from './lib/data-dir-lock';

/** `npm run seed`: migrates and seeds the configured database when it is empty. */
const config = loadConfig();
const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database);
  console.log((await seedIfEmpty(database.db)) ? 'Seeded demo data.' : 'The database already has data; nothing seeded.');
} finally {
  await database.close();
  unlock();
}

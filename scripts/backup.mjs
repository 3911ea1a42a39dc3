// `npm run backup [-- --out FILE]`: a backup of the configured database (docs/decisions/020-backups.md).
// PostgreSQL (DATABASE_URL): `pg_dump -Fc`, taken while the servers serve (one consistent snapshot).
// PGlite (DATA_DIR): PGlite's own dump of its data directory, a .tar.gz; the server must be stopped.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseOf, fail, lockDataDir, pgliteExtensions, runTool, serverImport, timestamp } from './backup-lib.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
// a backup holds password hashes and personal data: readable by its owner only
process.umask(0o077);
const database = databaseOf();
const out = resolve(
  values.out ?? join('backups', `spotter-${database.kind}-${timestamp()}.${database.kind === 'postgres' ? 'dump' : 'tar.gz'}`),
);
if (existsSync(out)) fail(`${out} exists already; choose another --out.`);
mkdirSync(dirname(out), { recursive: true });

const started = Date.now();
if (database.kind === 'postgres') {
  // -Fc: compressed, and pg_restore can restore it whole or in part
  runTool('pg_dump', ['--format=custom', '--no-owner', '--no-acl', `--file=${out}`, `--dbname=${database.url}`]);
} else {
  if (!existsSync(join(database.dbDir, 'PG_VERSION'))) fail(`There is no database in ${database.dbDir} to back up.`);
  const unlock = lockDataDir(database.dataDir, 'npm run backup');
  try {
    const { PGlite } = await serverImport('@electric-sql/pglite');
    const pglite = new PGlite({ dataDir: database.dbDir, extensions: await pgliteExtensions() });
    try {
      await pglite.waitReady;
      // everything written reaches the data files, so the copy needs no recovery when loaded
      await pglite.exec('checkpoint');
      const tarball = await pglite.dumpDataDir('gzip');
      writeFileSync(out, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
    } finally {
      await pglite.close();
    }
  } finally {
    unlock();
  }
}
console.log(
  `Backed up the ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} database to ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
);

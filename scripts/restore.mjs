// `npm run restore -- FILE [--force]`: loads a backup of `npm run backup` into the configured
// database (docs/decisions/020-backups.md). Stop the servers first. A database that has data is
// replaced only with --force; PGlite's old data folder is then kept beside it, renamed.
import { existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseOf, fail, lockDataDir, pgliteExtensions, runTool, serverImport, timestamp } from './backup-lib.mjs';

const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
if (positionals.length !== 1) fail('Usage: npm run restore -- FILE [--force]');
const file = resolve(positionals[0]);
if (!existsSync(file)) fail(`${file} does not exist.`);
process.umask(0o077);

/** The kind of database a backup is of, from its first bytes. */
function kindOf(path) {
  const head = Buffer.alloc(5);
  const fd = openSync(path, 'r');
  readSync(fd, head, 0, 5, 0);
  closeSync(fd);
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  return undefined;
}

const database = databaseOf();
const kind = kindOf(file);
if (!kind) fail(`${file} is not a backup of npm run backup (neither pg_dump's custom format nor a PGlite .tar.gz).`);
if (kind !== database.kind) {
  fail(
    `${file} is a ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} backup, but the configured database is ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (DATA_DIR)'}.`,
  );
}

const started = Date.now();
if (database.kind === 'postgres') {
  const { default: pg } = await serverImport('pg');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`);
  await client.end();
  const hasData = rows[0].n > 0;
  if (hasData && !values.force)
    fail('The database of DATABASE_URL has tables already. Restore into an empty database, or add --force to replace them.');
  runTool('pg_restore', [
    '--no-owner',
    '--no-acl',
    '--single-transaction',
    '--exit-on-error',
    ...(hasData ? ['--clean', '--if-exists'] : []),
    `--dbname=${database.url}`,
    file,
  ]);
} else {
  const unlock = lockDataDir(database.dataDir, 'npm run restore');
  try {
    if (existsSync(database.dbDir)) {
      if (existsSync(resolve(database.dbDir, 'PG_VERSION')) && !values.force)
        fail(`${database.dbDir} holds a database already. Add --force to replace it (it is kept, renamed).`);
      const aside = `${database.dbDir}.before-restore-${timestamp()}`;
      renameSync(database.dbDir, aside);
      console.log(`The database that was there is kept in ${aside}.`);
    }
    mkdirSync(database.dbDir, { recursive: true, mode: 0o700 });
    const { PGlite } = await serverImport('@electric-sql/pglite');
    const pglite = new PGlite({
      dataDir: database.dbDir,
      extensions: await pgliteExtensions(),
      loadDataDir: new Blob([readFileSync(file)], { type: 'application/x-gzip' }),
    });
    try {
      await pglite.waitReady;
      await pglite.query('select count(*) from schema_migrations');
    } finally {
      await pglite.close();
    }
  } finally {
    unlock();
  }
}
console.log(
  `Restored ${file} into the ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} database in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the server(s) again.`,
);

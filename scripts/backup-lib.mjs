// What `npm run backup` and `npm run restore` share: which database, the data folder's lock, the tools.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const serverRequire = createRequire(new URL('../apps/server/package.json', import.meta.url));
/** A dependency of the server (PGlite, pg), loaded as the server loads it. */
export const serverImport = (name) => import(pathToFileURL(serverRequire.resolve(name)).href);

/** The database the server would use: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db. */
export function databaseOf(env = process.env) {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  const dataDir = resolve(env.DATA_DIR || './data');
  return { kind: 'pglite', dataDir, dbDir: join(dataDir, 'db') };
}

/** Stops with a message for people (no stack), exit code 1. */
export function fail(message) {
  console.error(message);
  process.exit(1);
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Which process `pid` is (Linux): boot id and start time, as apps/server/src/lib/data-dir-lock.ts records it. */
function identityOf(pid) {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${boot} ${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock the server takes on DATA_DIR (apps/server/src/lib/data-dir-lock.ts, the same
 * file and format: `server.pid`, taken over when its process is gone or its pid names another
 * process now), so that no server opens the database while it is copied or replaced. Answers the
 * function that releases it.
 */
export function lockDataDir(dataDir, what) {
  const file = join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n${identityOf(process.pid) ?? ''}\n`, { flag: 'wx', mode: 0o600 });
      const unlock = () => rmSync(file, { force: true });
      process.once('exit', unlock);
      return unlock;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const [pidLine, recorded] = readFileSync(file, 'utf8').split('\n');
      const pid = Number(pidLine.trim());
      const now = recorded?.trim() ? identityOf(pid) : undefined;
      const same = !recorded?.trim() || now === undefined || now === recorded.trim();
      if (pid && pid !== process.pid && isAlive(pid) && same) {
        fail(
          `Spotter (pid ${pid}) is using ${dataDir}. PGlite has one user at a time: stop the server, run ${what}, then start it again.\n` +
            'On PostgreSQL (DATABASE_URL) backups run while the server serves.',
        );
      }
      rmSync(file, { force: true });
    }
  }
  fail(`Could not lock ${dataDir}`);
}

/** Runs a PostgreSQL client tool; a missing tool or a failure stops the script with its message. */
export function runTool(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error?.code === 'ENOENT') {
    fail(
      `${cmd} is not installed: install PostgreSQL's client tools of the server's major version or newer (Debian: apt-get install postgresql-client).`,
    );
  }
  if (r.status !== 0) fail(`${cmd} failed (exit ${r.status ?? r.signal}).`);
}

/** 2026-11-23T02-40-05Z: sorts by time and is a valid file name everywhere. */
export const timestamp = () =>
  new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

/** The extensions the server opens PGlite with (apps/server/src/db/client.ts): needed on every open. */
export async function pgliteExtensions() {
  const { pg_trgm } = await serverImport('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

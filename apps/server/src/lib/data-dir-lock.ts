import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepDataDirPrivate } from './private-dir';

/**
 * Only one process may open a PGlite directory: two lost committed rows in a trial. The lock is
 * a pid file; a file left by a killed process is taken over once its pid is gone. The directory
 * is made (and kept) readable by its owner only before anything is written to it.
 */
export function lockDataDir(dataDir: string): () => void {
  keepDataDirPrivate(dataDir);
  const file = join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `Another Spotter process (pid ${pid}) is using ${dataDir}. Stop it first, or set DATABASE_URL to run several processes on PostgreSQL.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

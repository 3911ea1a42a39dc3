import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepDataDirPrivate } from './private-dir';

/**
 * Only one process may open a PGlite directory: two lost committed rows in a trial. The lock is
 * a pid file; a file left by a killed process is taken over once its pid is gone, or (Linux) once
 * that pid names another process than the one that wrote it: after a crash and a restart (of a
 * container, of the machine) the old pid is often some other live process. The directory is made
 * (and kept) readable by its owner only before anything is written to it.
 *
 * The file: the pid on the first line; on Linux the boot id and the process's start time on the
 * second. scripts/backup-lib.mjs writes and reads the same file.
 */
export function lockDataDir(dataDir: string): () => void {
  keepDataDirPrivate(dataDir);
  const file = join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n${identityOf(process.pid) ?? ''}\n`, { flag: 'wx', mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const [pidLine, identity] = readFileSync(file, 'utf8').split('\n');
      const pid = Number(pidLine.trim());
      if (pid && pid !== process.pid && isAlive(pid) && isSameProcess(pid, identity?.trim())) {
        throw new Error(
          `Another Spotter process (pid ${pid}) is using ${dataDir}. Stop it first, or set DATABASE_URL to run several processes on PostgreSQL.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * Which process `pid` is (Linux): the boot id and its start time in clock ticks since boot.
 * Undefined elsewhere, or when /proc cannot tell.
 */
function identityOf(pid: number): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // field 22 (starttime); the command name in field 2 may hold spaces, so count after its ')'
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${boot} ${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

/** False only when the file names the process and `pid` now is provably another one. */
function isSameProcess(pid: number, recorded: string | undefined): boolean {
  if (!recorded) return true;
  const now = identityOf(pid);
  return now === undefined || now === recorded;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

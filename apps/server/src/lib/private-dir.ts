import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const GROUP_AND_OTHERS = 0o077;

/**
 * DATA_DIR holds the database, the outbox and the token secret: only its owner may read them.
 * The umask covers what Node creates; an existing directory (from an older version, or made by
 * hand) is tightened; and PGlite, which chmods every file it creates to 0666 whatever the umask,
 * has its chmods inside DATA_DIR masked to owner-only.
 */
export function keepDataDirPrivate(dataDir: string, { create = true } = {}): void {
  if (isMainThread) process.umask(GROUP_AND_OTHERS); // a worker thread may not set it
  const root = resolve(dataDir);
  if (!create && !fs.existsSync(root)) return maskChmodInside(root);
  fs.mkdirSync(root, { recursive: true, mode: DIR_MODE });
  maskChmodInside(root);
  tighten(root);
}

/** Every folder 0700 and every file 0600 under `dir`; symbolic links are left alone. */
function tighten(dir: string): void {
  fs.chmodSync(dir, DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tighten(path);
    else if (entry.isFile()) fs.chmodSync(path, FILE_MODE);
  }
}

const privateRoots = new Set<string>();
const isInside = (path: string) => {
  const target = resolve(path);
  for (const root of privateRoots) if (target === root || target.startsWith(root + sep)) return true;
  return false;
};

function maskChmodInside(root: string): void {
  if (privateRoots.has(root)) return;
  if (privateRoots.size === 0) {
    const chmodSync = fs.chmodSync;
    fs.chmodSync = ((path: fs.PathLike, mode: fs.Mode) => {
      if (!isInside(String(path))) return chmodSync(path, mode);
      const bits = typeof mode === 'string' ? parseInt(mode, 8) : mode;
      return chmodSync(path, bits & ~GROUP_AND_OTHERS);
    }) as typeof fs.chmodSync;
    syncBuiltinESMExports();
  }
  privateRoots.add(root);
}

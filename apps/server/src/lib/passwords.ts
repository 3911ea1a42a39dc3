import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from './app-error';
import { createWorkQueue, QueueFullError } from './work-queue';

// Argon2id with OWASP's third recommended profile (12 MiB, 3 passes), which it rates as equal in
// defence to the second (19 MiB, 2 passes) for about the same work: two at once hold 14 MiB less
// at a burst of log-ins (docs/decisions/032-server-memory.md). Hashes made with the second still verify (the
// parameters are in the hash) and are replaced when the password changes.
const OPTIONS = { algorithm: 2 as const, memoryCost: 12288, timeCost: 3, parallelism: 1 };

/**
 * Each hash holds 12 MiB while it runs. More at once than there are cores finishes none sooner
 * (they share the cores) but holds more memory, so they take turns; a flood beyond the waiting
 * list is refused at once (503) rather than queued behind minutes of work.
 */
// at most 3: Node's thread pool has 4 threads, and files, DNS and compression need one too
const argon2 = createWorkQueue({ concurrency: Math.min(availableParallelism(), 3), maxWaiting: 256 });

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await argon2.run(work);
  } catch (err) {
    if (err instanceof QueueFullError) throw new AppError('DATABASE_UNAVAILABLE', SERVER_MSG.databaseUnavailable);
    throw err;
  }
}

export const hashPassword = (password: string) => inTurn(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return inTurn(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

/** Verifying against this keeps a login for an unknown e-mail as slow as a wrong password. */
let dummyHash: Promise<string> | undefined;
export function getDummyHash(): Promise<string> {
  if (!dummyHash) {
    dummyHash = hashPassword('Dummy1234');
    // refused in a flood: the next login tries again rather than failing for the process's life
    dummyHash.catch(() => (dummyHash = undefined));
  }
  return dummyHash;
}

/** Hashes running and waiting now. */
export const passwordWork = () => argon2.stats();

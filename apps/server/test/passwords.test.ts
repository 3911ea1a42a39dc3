import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordWork, verifyPassword } from '../src/lib/passwords';

describe('password hashing takes turns', () => {
  it('runs no more Argon2 hashes at once than there are cores (3 at most); the rest wait and all finish right', async () => {
    const stored = await hashPassword('Right1234');
    const attempts = 6;
    const checks = Array.from({ length: attempts }, (_, i) => verifyPassword(stored, i % 2 ? 'Right1234' : 'Wrong1234'));
    const running = Math.min(attempts, availableParallelism(), 3);
    expect(passwordWork()).toEqual({ running, waiting: attempts - running });
    expect(await Promise.all(checks)).toEqual([false, true, false, true, false, true]);
    expect(passwordWork()).toEqual({ running: 0, waiting: 0 });
  });
});

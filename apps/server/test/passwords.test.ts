import { availableParallelism } from 'node:os';
import { hash } from '@node-rs/argon2';
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

describe('password hashing profile', () => {
  it("makes hashes with OWASP's 12 MiB, 3-pass profile and still verifies those made with the former 19 MiB, 2-pass one", async () => {
    const stored = await hashPassword('Right1234');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    const former = await hash('Right1234', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(former).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(former, 'Right1234')).toBe(true);
    expect(await verifyPassword(former, 'Wrong1234')).toBe(false);
  });
});

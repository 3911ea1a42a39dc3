import { loginLockedMessage } from '@spotter/shared';
import { createFailureLimiter, LockedOut, type Attempt } from './failure-limiter';
import { addressGroup } from './rate-limits';

const MINUTE = 60_000;
export const LOGIN_LIMITS = {
  /** failed log-ins per e-mail and IP before that pair waits */
  perEmailAndIp: 5,
  /** failed log-ins per e-mail across all IPs before new IPs wait too */
  perEmail: 100,
  windowMs: 15 * MINUTE,
  /** how long an IP that logged in successfully stays exempt from the per-e-mail ceiling */
  knownIpMs: 30 * 24 * 60 * MINUTE,
  knownIpsMax: 100_000,
};

/**
 * Login lockout (docs/decisions/009-login-lockout.md): failures are counted per e-mail and IP
 * (strict) and per e-mail across all IPs (a loose ceiling), so a stranger's wrong guesses lock the
 * stranger out, not the owner. An IP that has logged in to the account before is not held back
 * by the ceiling, only by its own failures. An IPv6 client counts as its /64 (`addressGroup`).
 */
export function createLoginThrottle(limits: Partial<typeof LOGIN_LIMITS> & { now?: () => number } = {}) {
  const l = { ...LOGIN_LIMITS, ...limits };
  const now = limits.now ?? Date.now;
  const pairs = createFailureLimiter({ max: l.perEmailAndIp, windowMs: l.windowMs, now });
  const emails = createFailureLimiter({ max: l.perEmail, windowMs: l.windowMs, now });
  const knownIps = new Map<string, number>();

  const isKnown = (pair: string) => (knownIps.get(pair) ?? 0) > now();
  const remember = (pair: string) => {
    knownIps.delete(pair);
    knownIps.set(pair, now() + l.knownIpMs);
    // oldest first: a Map keeps insertion order
    for (const key of knownIps.keys()) {
      if (knownIps.size <= l.knownIpsMax) break;
      knownIps.delete(key);
    }
  };

  return {
    /**
     * Call before checking the password; throws `LockedOut` (429) when this e-mail may not try
     * from this IP now. Call `succeeded()` on the answer when the password was right.
     */
    begin(account: string, ip: string): Attempt {
      const pair = `${account}|${addressGroup(ip)}`;
      const wait = Math.max(pairs.retryAfter(pair), isKnown(pair) ? 0 : emails.retryAfter(account));
      if (wait > 0) throw new LockedOut(loginLockedMessage(wait), wait);
      pairs.count(pair);
      const takeBack = emails.count(account);
      return {
        succeeded() {
          pairs.clear(pair);
          takeBack();
          remember(pair);
        },
      };
    },
  };
}

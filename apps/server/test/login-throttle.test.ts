import { describe, expect, it } from 'vitest';
import { LockedOut } from '../src/platform/failure-limiter';
import { createLoginThrottle } from '../src/platform/login-throttle';

const fail = (throttle: ReturnType<typeof createLoginThrottle>, account: string, ip: string) => throttle.begin(account, ip);

describe('login throttle: the per-e-mail ceiling across IPs', () => {
  it('a right password from a new IP gets in until the ceiling is reached; then new IPs wait, known ones do not', () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle({ perEmailAndIp: 5, perEmail: 100, windowMs: 15 * 60_000, now: () => now });
    const account = 'user|owner@example.com';
    throttle.begin(account, '10.0.0.1').succeeded(); // the owner's usual IP

    // 99 failures from 25 IPs: still under the ceiling, a new IP with the right password gets in
    for (let i = 0; i < 99; i++) fail(throttle, account, `203.0.113.${i % 25}`);
    throttle.begin(account, '198.51.100.1').succeeded();

    fail(throttle, account, '203.0.113.99'); // the 100th failure
    expect(() => throttle.begin(account, '198.51.100.2')).toThrow(LockedOut);
    expect(() => throttle.begin(account, '198.51.100.2')).toThrow(/Try again in 15 minutes/);
    // IPs that logged in before are held back only by their own failures
    expect(() => throttle.begin(account, '10.0.0.1').succeeded()).not.toThrow();
    expect(() => throttle.begin(account, '198.51.100.1').succeeded()).not.toThrow();
    // another e-mail is not affected
    expect(() => throttle.begin('user|other@example.com', '198.51.100.2')).not.toThrow();

    now += 15 * 60_000;
    expect(() => throttle.begin(account, '198.51.100.2').succeeded()).not.toThrow();
  });

  it('addresses of one IPv6 /64 are one client: a hundred of them cannot reach the ceiling and lock the owner’s new device', () => {
    let now = 0;
    const throttle = createLoginThrottle({ now: () => now });
    const account = 'user|owner@example.com';
    let refused = 0;
    for (let i = 1; i <= 100; i++) {
      try {
        throttle.begin(account, `2001:db8:66:1::${i.toString(16)}`);
      } catch (err) {
        expect(err).toBeInstanceOf(LockedOut);
        refused++;
      }
    }
    // five failures counted for that /64; the other 95 were refused before they could count
    expect(refused).toBe(95);
    expect(() => throttle.begin(account, '2001:db8:66:2::1').succeeded()).not.toThrow();
    expect(() => throttle.begin(account, '198.51.100.66').succeeded()).not.toThrow();
    now += 15 * 60_000;
    expect(() => throttle.begin(account, '2001:db8:66:1::1').succeeded()).not.toThrow();
  });

  it('the strict limit applies to known IPs too, and ends with its window', () => {
    let now = 0;
    const throttle = createLoginThrottle({ now: () => now });
    const account = 'trainer|coach@example.com';
    throttle.begin(account, '10.0.0.1').succeeded();
    for (let i = 0; i < 5; i++) fail(throttle, account, '10.0.0.1');
    expect(() => throttle.begin(account, '10.0.0.1')).toThrow(LockedOut);
    now += 15 * 60_000;
    expect(() => throttle.begin(account, '10.0.0.1')).not.toThrow();
  });
});

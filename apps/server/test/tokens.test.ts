import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService } from '../src/lib/tokens';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const ID = '6f1c2b9e-0000-4000-8000-000000000001';

describe('verified tokens remembered until they expire', () => {
  it('checks a signature once, then answers the same token from memory; a changed token is checked and refused', async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ id: ID, role: 'user', tv: 2 });
    expect(await tokens.verify(token)).toEqual({ id: ID, role: 'user', tv: 2 });
    expect(await tokens.verify(token)).toEqual({ id: ID, role: 'user', tv: 2 });
    expect(tokens.stats()).toMatchObject({ checked: 1, remembered: 1, entries: 1 });
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('xx') ? 'yy' : 'xx'}`;
    expect(await tokens.verify(tampered)).toBeNull();
    const otherClaims = Buffer.from(JSON.stringify({ id: ID, role: 'trainer', tv: 2, exp: 4102444800 })).toString('base64url');
    expect(await tokens.verify(`${h}.${otherClaims}.${s}`)).toBeNull();
    expect(tokens.stats()).toMatchObject({ checked: 3, remembered: 1, entries: 1 });
    // another secret's service knows nothing of it
    expect(await createTokenService(`${SECRET}-other`).verify(token)).toBeNull();
  });

  it('refuses a remembered token once its exp has passed', async () => {
    let clock = Date.now();
    const tokens = createTokenService(SECRET, { now: () => clock });
    const exp = Math.floor(clock / 1000) + 60;
    const token = await new SignJWT({ id: ID, role: 'user', tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(token)).not.toBeNull();
    clock = exp * 1000 - 1;
    expect(await tokens.verify(token)).not.toBeNull();
    clock = exp * 1000;
    expect(await tokens.verify(token)).toBeNull();
    expect(tokens.stats()).toMatchObject({ checked: 1, remembered: 1 });
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { isId, type Role } from '@spotter/shared';

const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

type SessionClaims = { id: string; role: Role; tv: number };

/** HS256 wants a key at least as long as its 256-bit output. */
export const MIN_KEY_BYTES = 32;

/**
 * Signs and checks session tokens: HS256 only, so `alg: none` and other algorithms are refused,
 * and a token must carry `exp`, so none lives forever.
 */
export function createTokenService(secret: string) {
  const key = new TextEncoder().encode(secret);
  if (key.byteLength < MIN_KEY_BYTES) throw new Error(`The token secret must be at least ${MIN_KEY_BYTES} bytes`);
  return {
    async sign(claims: SessionClaims): Promise<string> {
      return new SignJWT({ id: claims.id, role: claims.role, tv: claims.tv })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.id)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
        .sign(key);
    },
    /** The claims, or null for anything that is not a valid, unexpired token of ours. */
    async verify(token: string): Promise<SessionClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
        const { id, role, tv } = payload as Record<string, unknown>;
        // an id that is no account id (a token signed with our key around other claims) names nobody
        if (!isId(id) || (role !== 'user' && role !== 'trainer') || typeof tv !== 'number') return null;
        return { id, role, tv };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

/** A one-time token for mailed links, and the hash that is stored instead of it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

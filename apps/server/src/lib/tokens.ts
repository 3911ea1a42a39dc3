import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { isId, type Role } from '@spotter/shared';

const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
const CONSOLE_AUDIENCE = 'spotter-console';
/** How a sealed secret starts: the format's version (AES-256-GCM, its key derived by HKDF-SHA-256). */
const SEALED_PREFIX = 'v1.';

type SessionClaims = { id: string; role: Role; tv: number };

/** HS256 wants a key at least as long as its 256-bit output. */
export const MIN_KEY_BYTES = 32;
/** At most this many verified tokens are remembered (the least recently used go first). */
const VERIFIED_MAX = 10_000;

/**
 * Signs and checks session tokens: HS256 only, so `alg: none` and other algorithms are refused,
 * and a token must carry `exp`, so none lives forever. A token whose signature checked out is
 * remembered, exactly as sent, with its claims until its `exp`: checking the signature (WebCrypto,
 * about 0.1 ms) cost an authenticated read as much as the rest of it. Whether the account still
 * accepts it is checked on every request all the same (plugins/auth.ts).
 */
export function createTokenService(secret: string, { now = Date.now }: { now?: () => number } = {}) {
  const key = new TextEncoder().encode(secret);
  if (key.byteLength < MIN_KEY_BYTES) throw new Error(`The token secret must be at least ${MIN_KEY_BYTES} bytes`);
  const verified = new Map<string, { claims: SessionClaims; expiresAt: number }>();
  const counters = { remembered: 0, checked: 0 };
  // the key that seals secrets kept in the database: derived from the same secret, for this use only
  const sealKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'spotter sealed secrets v1', 32));
  return {
    /**
     * A secret to keep in the database sealed (an operator's TOTP secret): AES-256-GCM under a key
     * derived from the server's secret, `v1.<iv>.<ciphertext>.<tag>` in base64url. A copy of the
     * database alone does not give it away.
     */
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${[iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.')}`;
    },
    /**
     * What `seal` sealed; a value written before secrets were sealed is answered as it is. Undefined
     * when it cannot be opened (sealed under another server secret, or changed).
     */
    open(stored: string): string | undefined {
      if (!stored.startsWith(SEALED_PREFIX)) return stored;
      const [iv, data, tag] = stored
        .slice(SEALED_PREFIX.length)
        .split('.')
        .map((p) => Buffer.from(p, 'base64url'));
      if (!iv || !data || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },

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
      const known = verified.get(token);
      if (known) {
        verified.delete(token);
        if (now() >= known.expiresAt) return null;
        counters.remembered++;
        verified.set(token, known);
        return known.claims;
      }
      try {
        counters.checked++;
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
        const { id, role, tv, exp } = payload as Record<string, unknown>;
        // an id that is no account id (a token signed with our key around other claims) names nobody
        if (!isId(id) || (role !== 'user' && role !== 'trainer') || typeof tv !== 'number') return null;
        const claims: SessionClaims = { id, role, tv };
        verified.set(token, { claims, expiresAt: (exp as number) * 1000 });
        if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
        return claims;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },

    /**
     * A console session's token (docs/product.md#the-operator-console): its own audience and a
     * shorter life; `verify` above refuses it (it names no member role), and `verifyConsole` refuses
     * a member's token (no console audience).
     */
    async signConsole(claims: { id: string; tv: number }, hours: number): Promise<string> {
      return new SignJWT({ op: claims.id, tv: claims.tv })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.id)
        .setAudience(CONSOLE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${hours * 3600}s`)
        .sign(key);
    },
    async verifyConsole(token: string): Promise<{ id: string; tv: number } | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          audience: CONSOLE_AUDIENCE,
          requiredClaims: ['exp', 'aud'],
        });
        const { op, tv } = payload as Record<string, unknown>;
        return isId(op) && typeof tv === 'number' ? { id: op, tv } : null;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },

    /** Tokens answered from memory and signatures checked (tests read them). */
    stats: () => ({ ...counters, entries: verified.size }),
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

/** A one-time token for mailed links, and the hash that is stored instead of it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

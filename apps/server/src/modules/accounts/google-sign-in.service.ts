import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { EmailSchema, GOOGLE_MSG, SERVER_MSG, type Role } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { TokenService } from '../../lib/tokens';
import * as repo from './accounts.repo';
import { refuseSuspended, type OnDeleted, type OnRegistered } from './accounts.service';

/** Google writes either form into `iss` (https://developers.google.com/identity/gsi/web/guides/verify-google-id-token). */
const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** The password hash of an account nobody has set a password for: no password ever matches it. */
const NO_PASSWORD = '!';

/** How far ahead of this server's clock a token's `iat` may be: clocks drift, tokens are not issued in the future. */
const IAT_SKEW_S = 5 * 60;

type Deps = {
  db: Db;
  tokens: TokenService;
  clientId?: string;
  jwksUrl: string;
  onRegistered?: OnRegistered;
  /** The accounts service's hook: a retired account is deleted as any other (a trainer's sessions refunded). */
  onDeleted?: OnDeleted;
};

/** The claims of a verified Google ID token that sign-in uses. */
type GoogleIdentity = { email: string; firstName: string; lastName: string; picture: string };

/** Google's key set could not be had (down, slow, not JSON): not the caller's fault, so not a 401. */
class KeySetUnavailable extends Error {}

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** Only Google's own picture host: the CSP lets exactly that one in when sign-in is configured. */
function googlePicture(v: unknown): string {
  if (typeof v !== 'string' || v.length > 2000) return '';
  try {
    const url = new URL(v);
    return url.protocol === 'https:' && url.hostname.endsWith('.googleusercontent.com') ? url.href : '';
  } catch {
    return '';
  }
}

/** Whether U+0000 is in any claim, a nested one or a key included. */
function hasNul(payload: JWTPayload): boolean {
  let found = false;
  JSON.stringify(payload, (key, value: unknown) => {
    if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) found = true;
    return value;
  });
  return found;
}

function identityOf(payload: JWTPayload): GoogleIdentity {
  // PostgreSQL cannot store U+0000: a name carrying one was a 500 once it reached a query
  if (hasNul(payload)) throw new AppError('VALIDATION_FAILED', SERVER_MSG.nulCharacter, { credential: SERVER_MSG.nulCharacter });
  // an address as the sign-up form takes one; anything else would become an account no mail reaches
  const parsed = EmailSchema.safeParse(payload.email);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', GOOGLE_MSG.emailInvalid, { credential: GOOGLE_MSG.emailInvalid });
  const email = parsed.data;
  // Google sends a boolean; some older tokens carried the string "true"
  const isVerified = payload.email_verified === true || payload.email_verified === 'true';
  if (!isVerified) throw new AppError('INVALID_CREDENTIALS', GOOGLE_MSG.emailNotVerified);
  const firstName = text(payload.given_name, 50) || text(payload.name, 50) || email.split('@')[0].slice(0, 50);
  return { email, firstName, lastName: text(payload.family_name, 50), picture: googlePicture(payload.picture) };
}

/**
 * Signs in with a Google ID token (docs/product.md#google-sign-in). The server checks the token itself against
 * Google's published keys (signature, RS256 only, audience, issuer, expiry); nothing the browser
 * decoded is believed. The account is the one of that verified e-mail and role, created when missing.
 */
export function createGoogleSignInService({ db, tokens, clientId, jwksUrl, onRegistered, onDeleted }: Deps) {
  // jose caches the key set (10 min, and refetches at most every 30 s when a token names an unknown key)
  const remoteKeys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000 });
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remoteKeys(header, token);
    } catch (err) {
      // a key id the set does not hold is the token's problem; anything else is the key server's
      if (err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWKSMultipleMatchingKeys) throw err;
      throw new KeySetUnavailable('Google key set unavailable', { cause: err });
    }
  };

  async function verify(credential: string, audience: string): Promise<GoogleIdentity> {
    try {
      const { payload } = await jwtVerify(credential, keys, {
        algorithms: ['RS256'],
        audience,
        issuer: GOOGLE_ISSUERS,
        requiredClaims: ['exp', 'iat', 'sub', 'email'],
        clockTolerance: 30,
      });
      // jose checks `iat` against the clock only with maxTokenAge; expiry alone lets a future one through
      if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + IAT_SKEW_S)
        throw new AppError('INVALID_CREDENTIALS', GOOGLE_MSG.invalidCredential);
      return identityOf(payload);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof KeySetUnavailable) throw new AppError('PROVIDER_UNAVAILABLE', GOOGLE_MSG.keysUnavailable);
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError)
        throw new AppError('INVALID_CREDENTIALS', GOOGLE_MSG.invalidCredential);
      throw err;
    }
  }

  return {
    /** The client id the browser needs for Google's button, or null when sign-in is off. */
    clientId: clientId ?? null,

    /** `{ message, token }` like a login; the cause of a refusal is logged by the caller, never guessed by the browser. */
    async signIn(role: Role, credential: string): Promise<{ message: string; token: string }> {
      if (!clientId) throw new AppError('NOT_CONFIGURED', GOOGLE_MSG.notConfigured);
      const google = await verify(credential, clientId);
      return db.transaction(async (tx) => {
        const existing = await repo.findCredentialsByEmail(tx, role, google.email);
        if (existing && !(await repo.isVerifiedAccount(tx, existing.id))) {
          // Whoever registered this address never proved it; Google just did. The owner starts with a
          // new account: nothing the registrant set (a name, a password lying in wait, chats written
          // in the owner's name) is handed over (docs/decisions/034-socket-and-sign-in-limits.md).
          const retired = await repo.retireUnprovenAccount(tx, existing.id);
          if (retired && onDeleted) await onDeleted(tx, { id: existing.id, role: retired.role });
        } else if (existing) {
          const account = await repo.findCredentialsById(tx, existing.id);
          if (!account) throw new AppError('INVALID_CREDENTIALS', GOOGLE_MSG.invalidCredential);
          refuseSuspended(account);
          return {
            message: SERVER_MSG.loginOk,
            token: await tokens.sign({ id: account.id, role: account.role, tv: account.tokenVersion }),
          };
        }
        const weight = 0;
        const created = await repo.insertAccount(tx, {
          role,
          email: google.email,
          passwordHash: NO_PASSWORD,
          firstName: google.firstName,
          lastName: google.lastName,
          picture: google.picture,
          // Google does not tell these; the sign-up form's defaults, changed in settings
          gender: 'male',
          age: 0,
          height: 0,
          weight,
          // a trainer sets a price in settings before being listed (LISTED_TRAINER)
          priceCents: null,
          emailVerifiedAt: new Date(),
        });
        if (created && onRegistered) await onRegistered(tx, { id: created.id, role, weight });
        // another request created it a moment ago: the unique (role, e-mail) index kept it one account
        const account = created
          ? { id: created.id, tokenVersion: 0, suspendedAt: null, suspensionReason: null }
          : await repo.findCredentialsByEmail(tx, role, google.email);
        if (!account) throw new AppError('INVALID_CREDENTIALS', GOOGLE_MSG.invalidCredential);
        refuseSuspended(account);
        return {
          message: created ? GOOGLE_MSG.signedUp : SERVER_MSG.loginOk,
          token: await tokens.sign({ id: account.id, role, tv: account.tokenVersion }),
        };
      });
    },
  };
}
export type GoogleSignInService = ReturnType<typeof createGoogleSignInService>;

import { ZPushPayload, type TPushPayload } from '@spotter/shared';

/**
 * What the service worker (apps/web/src/sw/sw.ts) does with each kind of request, kept apart from
 * it so it is tested in the app's tests (docs/decisions/048-service-worker.md).
 */

/** Public reads a visitor (no Authorization) makes: the trainer list, a profile, its reviews. */
const PUBLIC_READ = [/^\/api\/trainers$/, /^\/api\/trainerData\/[^/]+$/, /^\/api\/trainer\/reviews\/[^/]+(\/distribution)?$/];

/** Pictures whose address changes with their content: stored photos, generated portraits, the build's images. */
const PICTURE = [
  /^\/api\/images\/[0-9a-f]{64}\.webp$/,
  /^\/api\/avatars\/[\w.-]+\.svg$/,
  /^\/assets\/[^/]+\.(webp|avif|jpe?g|png|svg)$/,
];

/**
 * Reads a signed-in person makes with their token: their own data, and the public reads above, whose
 * answers mark their own rows (a favourite, their review). Not the operator console, push
 * subscriptions, sign-in, or health checks.
 */
const PERSONAL_READ =
  /^\/api\/(bookings|chats|conversations|userData|trainerData|user|trainer|trainers|payments|balances|payouts|favorites|waitlist|reviews)(\/|$)/;

const FREE_TIMES = /^\/api\/trainers\/[^/]+\/slots$/;

export type RequestKind = 'public' | 'picture' | 'personal' | 'network';

/** Which strategy a same-origin GET gets; 'network' is left to the browser (never cached). */
export function kindOf(pathname: string, hasAuthorization: boolean): RequestKind {
  if (PICTURE.some((re) => re.test(pathname))) return 'picture';
  // a trainer's free times change by the minute, and booking needs the network anyway
  if (FREE_TIMES.test(pathname)) return 'network';
  if (hasAuthorization) return PERSONAL_READ.test(pathname) ? 'personal' : 'network';
  return PUBLIC_READ.some((re) => re.test(pathname)) ? 'public' : 'network';
}

/** A push message's payload, or undefined when it is not one Spotter sends (then nothing is shown). */
export function parsePush(read: () => unknown): TPushPayload | undefined {
  try {
    const parsed = ZPushPayload.safeParse(read());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Where a notification's click goes: its path on this site, or the home page for anything else. */
export function notificationTarget(url: unknown, origin: string): string {
  if (typeof url !== 'string' || !url.startsWith('/')) return `${origin}/`;
  const target = new URL(url, origin);
  return target.origin === origin ? target.href : `${origin}/`;
}

/** The SHA-256 of a value, in hex (the personal cache's key holds the token's, never the token). */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The cache key of a personal read: its address with the hash of the token it was asked with. */
export async function personalCacheKey(url: string, authorization: string): Promise<string> {
  const key = new URL(url);
  key.searchParams.set('spotter-token', await sha256Hex(authorization));
  return key.href;
}

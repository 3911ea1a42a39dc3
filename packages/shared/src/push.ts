import { z } from 'zod';

/**
 * What Spotter sends as a Web Push notification (docs/product.md#notifications), each kind turned on
 * or off per device: a new message (when the recipient has no open chat socket), a session booked,
 * moved or cancelled, the reminder before a session, a waitlist offer, and (trainers) a payout sent.
 */
export const PUSH_KINDS = ['message', 'booking', 'reminder', 'waitlist', 'payout'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The settings' words for each kind. */
export const PUSH_KIND_LABELS: Readonly<Record<PushKind, string>> = {
  message: 'New messages',
  booking: 'Sessions booked, moved or cancelled',
  reminder: 'Reminders before a session',
  waitlist: 'A time you wait for opens up',
  payout: 'Payouts sent',
};

/** The kinds a role can get (users get no payouts). */
export const pushKindsFor = (role: 'user' | 'trainer'): PushKind[] =>
  role === 'trainer' ? [...PUSH_KINDS] : PUSH_KINDS.filter((k) => k !== 'payout');

export const PUSH_LIMITS = {
  /** Browsers' push endpoints are a few hundred characters. */
  endpointMax: 2048,
  /** Devices one account may register; the oldest goes when a new one comes. */
  subscriptionsPerAccount: 10,
  /** A notification's text, cut to fit the 4 KB a push service carries. */
  titleMax: 120,
  bodyMax: 300,
} as const;

export const PUSH_MSG = {
  endpoint: 'This browser gave no push address Spotter can use',
  keys: 'This browser’s push keys are not valid',
  host: 'This browser’s push service is not one Spotter sends to',
  off: 'Notifications are turned off on this server',
} as const;

/** A base64url key of `bytes` bytes (padding allowed, as some browsers send it). */
const base64urlKey = (bytes: number) =>
  z
    .string({ error: PUSH_MSG.keys })
    .max(200, PUSH_MSG.keys)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, PUSH_MSG.keys)
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === bytes, PUSH_MSG.keys);

/** GET /api/push/config: the VAPID public key (applicationServerKey), or null when push is off. */
export const ZPushConfig = z.object({ publicKey: z.string().nullable() });
export type TPushConfig = z.infer<typeof ZPushConfig>;

/**
 * POST /api/push/subscriptions: a browser's `PushSubscription.toJSON()` and, optionally, the kinds
 * this device wants (all the role's kinds when absent). The same endpoint again updates its kinds
 * and keys. The endpoint must be on a push service's host (`PUSH_ENDPOINT_HOSTS`).
 */
export const ZPushSubscriptionRequest = z.object({
  endpoint: z.url({ error: PUSH_MSG.endpoint }).max(PUSH_LIMITS.endpointMax, PUSH_MSG.endpoint),
  expirationTime: z
    .number({ error: 'expirationTime is a time in milliseconds, or null' })
    .nonnegative('expirationTime is a time in milliseconds, or null')
    // the last date JavaScript can hold
    .max(8.64e15, 'expirationTime is a time in milliseconds, or null')
    .nullable()
    .optional(),
  keys: z.object({ p256dh: base64urlKey(65), auth: base64urlKey(16) }, { error: PUSH_MSG.keys }),
  kinds: z
    .array(z.enum(PUSH_KINDS, { error: `Each kind is one of ${PUSH_KINDS.join(', ')}` }), {
      error: `kinds is a list of ${PUSH_KINDS.join(', ')}`,
    })
    .max(PUSH_KINDS.length * 2, `kinds is a list of ${PUSH_KINDS.join(', ')}`)
    .optional(),
});
export type TPushSubscriptionRequest = z.input<typeof ZPushSubscriptionRequest>;

/** One of the caller's devices, as the server keeps it. */
export const ZPushSubscription = z.object({
  endpoint: z.string(),
  kinds: z.array(z.enum(PUSH_KINDS)),
  createdAt: z.string(),
});
export type TPushSubscription = z.infer<typeof ZPushSubscription>;
export const ZPushSubscriptionResponse = z.object({ subscription: ZPushSubscription });
/** GET /api/push/subscriptions: the caller's devices, newest first. */
export const ZPushSubscriptionsResponse = z.object({ subscriptions: z.array(ZPushSubscription) });
export type TPushSubscriptionsResponse = z.infer<typeof ZPushSubscriptionsResponse>;

/** DELETE /api/push/subscriptions: forget this device (its endpoint); unknown endpoints are fine (204 either way). */
export const ZDeletePushSubscriptionRequest = z.object({
  endpoint: z.string({ error: PUSH_MSG.endpoint }).min(1, PUSH_MSG.endpoint).max(PUSH_LIMITS.endpointMax, PUSH_MSG.endpoint),
});

/**
 * What one push message carries (JSON, encrypted for the device, RFC 8291); the service worker shows
 * it as a notification and opens `url` (a path on this site) when it is clicked. `tag` replaces an
 * earlier notification of the same thing; `badge` is the unread count for the app icon (Badging API).
 */
export const ZPushPayload = z.object({
  kind: z.enum(PUSH_KINDS),
  title: z.string().max(PUSH_LIMITS.titleMax),
  body: z.string().max(PUSH_LIMITS.bodyMax),
  url: z.string().startsWith('/'),
  tag: z.string().max(100),
  badge: z.number().int().nonnegative().optional(),
});
export type TPushPayload = z.infer<typeof ZPushPayload>;

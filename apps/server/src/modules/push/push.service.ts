import { createECDH, createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { generateRequestDetails } from 'web-push';
import {
  PUSH_LIMITS,
  PUSH_MSG,
  pushKindsFor,
  type PushKind,
  type TPushConfig,
  type TPushPayload,
  type TPushSubscription,
  type TPushSubscriptionRequest,
} from '@spotter/shared';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { JobRunner } from '../../platform/jobs';
import { allowedEndpoint, parseEndpointHosts } from './endpoint-hosts';
import { PUSH_DELIVER_JOB } from './push-jobs';
import * as repo from './push.repo';

/**
 * How long a push service keeps a notification for a device that is offline, and how urgently it
 * delivers it (RFC 8030 §5.2, §5.3): a message or a reminder is worth waking a phone for; a payout can wait.
 */
const DELIVERY: Record<PushKind, { ttlSeconds: number; urgency: 'low' | 'normal' | 'high' }> = {
  message: { ttlSeconds: 24 * 3600, urgency: 'high' },
  booking: { ttlSeconds: 24 * 3600, urgency: 'normal' },
  reminder: { ttlSeconds: 6 * 3600, urgency: 'high' },
  waitlist: { ttlSeconds: 3600, urgency: 'high' },
  payout: { ttlSeconds: 72 * 3600, urgency: 'low' },
};

/** Answers a push service may give that retrying will not change: the notification is dropped. */
const DROPPED = new Set([400, 401, 403, 413]);

type PushDeps = {
  db: Db;
  jobs: JobRunner;
  log: FastifyBaseLogger;
  config: Pick<Config, 'push'>;
  now: () => Date;
  /** How long one push service may take to answer (its job is retried after). */
  timeoutMs?: number;
};

/** Queues a notification for every device of `accountId` that wants its kind (nothing for someone without one). */
export type PushNotify = (q: Db | Tx, accountId: string, notice: TPushPayload) => Promise<void>;

/** A P-256 public key a browser sent: 65 bytes, uncompressed, and a point on the curve. */
function isCurvePoint(p256dh: string): boolean {
  const bytes = Buffer.from(p256dh, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(bytes);
    return true;
  } catch {
    return false;
  }
}

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A push service's Topic (RFC 8030 §5.4): a newer notification of the same thing replaces one not yet delivered. */
const topicOf = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32);

const toSubscription = (row: repo.SubscriptionRow): TPushSubscription => ({
  endpoint: row.endpoint,
  kinds: row.kinds as PushKind[],
  createdAt: row.createdAt.toISOString(),
});

export function createPushService({ db, jobs, log, config, now, timeoutMs = 10_000 }: PushDeps) {
  const vapid = config.push.vapid;
  const rules = parseEndpointHosts(config.push.endpointHosts);

  const notify: PushNotify = async (q, accountId, notice) => {
    if (!vapid) return;
    const safe: TPushPayload = {
      ...notice,
      title: cut(notice.title, PUSH_LIMITS.titleMax),
      body: cut(notice.body, PUSH_LIMITS.bodyMax),
    };
    await repo.enqueueDeliveries(q, {
      accountId,
      kind: notice.kind,
      jobKind: PUSH_DELIVER_JOB.name,
      runAt: now(),
      notice: safe,
    });
  };

  /**
   * Sends one notification to one device: encrypted for its keys (RFC 8291) and signed with the
   * server's VAPID key (RFC 8292) by the web-push library, posted by us (no redirects followed, a
   * deadline). A device the push service no longer knows (404, 410) or that expired is forgotten; a
   * failure that may pass (429, 5xx, no answer) throws, so the job is retried.
   */
  async function deliver({ subscriptionId, notice }: { subscriptionId: string; notice: TPushPayload }, at: Date) {
    if (!vapid) return;
    const sub = await repo.findSubscription(db, subscriptionId);
    if (!sub) return;
    if (sub.expiresAt && sub.expiresAt <= at) return repo.removeSubscription(db, sub.id);
    // PUSH_ENDPOINT_HOSTS may have changed since it was stored
    const url = allowedEndpoint(sub.endpoint, rules);
    if (!url || !sub.kinds.includes(notice.kind)) return;
    const { ttlSeconds, urgency } = DELIVERY[notice.kind];
    const details = generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(notice),
      {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: ttlSeconds,
        urgency,
        topic: topicOf(notice.tag),
        contentEncoding: 'aes128gcm',
      },
    );
    const res = await fetch(url, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      body: details.body ?? undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return;
    if (res.status === 404 || res.status === 410) {
      log.info({ subscriptionId, status: res.status }, 'push subscription gone; removed');
      return repo.removeSubscription(db, sub.id);
    }
    if (DROPPED.has(res.status) || (res.status >= 300 && res.status < 400)) {
      log.warn({ subscriptionId, status: res.status, kind: notice.kind }, 'push service refused a notification; dropped');
      return;
    }
    throw new Error(`push service answered ${res.status}`);
  }
  jobs.register(PUSH_DELIVER_JOB, (payload, { now: at }) => deliver(payload, at));

  return {
    notify,

    config(): TPushConfig {
      return { publicKey: vapid?.publicKey ?? null };
    },

    async list(accountId: string): Promise<TPushSubscription[]> {
      return (await repo.listSubscriptions(db, accountId)).map(toSubscription);
    },

    async subscribe(
      caller: { id: string; role: 'user' | 'trainer' },
      input: Omit<TPushSubscriptionRequest, 'expirationTime'> & { expirationTime?: number | null },
    ): Promise<TPushSubscription> {
      if (!vapid) throw new AppError('NOT_CONFIGURED', PUSH_MSG.off);
      if (!allowedEndpoint(input.endpoint, rules))
        throw new AppError('VALIDATION_FAILED', PUSH_MSG.host, { endpoint: PUSH_MSG.host });
      const p256dh = input.keys.p256dh.replace(/=+$/, '');
      if (!isCurvePoint(p256dh)) throw new AppError('VALIDATION_FAILED', PUSH_MSG.keys, { keys: PUSH_MSG.keys });
      const allowed = pushKindsFor(caller.role);
      const kinds = input.kinds ? allowed.filter((k) => input.kinds!.includes(k)) : allowed;
      const at = now();
      const row = await db.transaction((tx) =>
        repo.upsertSubscription(
          tx,
          {
            accountId: caller.id,
            endpoint: input.endpoint,
            p256dh,
            auth: input.keys.auth.replace(/=+$/, ''),
            expiresAt: input.expirationTime ? new Date(input.expirationTime) : null,
            kinds,
            now: at,
          },
          PUSH_LIMITS.subscriptionsPerAccount,
        ),
      );
      return toSubscription(row);
    },

    async unsubscribe(accountId: string, endpoint: string): Promise<void> {
      await repo.deleteSubscription(db, accountId, endpoint);
    },
  };
}
export type PushService = ReturnType<typeof createPushService>;

import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  verify as verifySignature,
  type ECDH,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions as HttpsRequestOptions } from 'node:https';
import { Socket, createConnection, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A local stand-in for a browser's push service and for the browser itself, for the server's tests.
 *
 * As the push service it is the receiving side of RFC 8030: an application server POSTs a push
 * message to a subscription's endpoint (RFC 8030 §5) with a TTL (§5.2), perhaps an Urgency (§5.3)
 * and a Topic (§5.4), identifies itself with VAPID (RFC 8292) and is answered 201 Created with a
 * Location. As the browser it holds each subscription's P-256 key pair and auth secret and decrypts
 * what arrives (RFC 8291 on top of the aes128gcm content coding of RFC 8188), so a test reads the
 * payload a device would show.
 *
 * It serves plain HTTP on a loopback address. The `web-push` library always calls `https.request`,
 * so a sender reaches the stand-in only through `agent` (an `https.Agent` that opens plain TCP
 * connections, and only to the stand-in), passed as `sendNotification`'s `agent` option.
 */

export type ReceivedPush = {
  path: string;
  headers: Record<string, string | undefined>;
  ttl: number;
  urgency?: string;
  topic?: string;
  vapid: { sub: string; aud: string; exp: number; publicKey: string };
  /** The decrypted payload as UTF-8 ('' for a push message without a payload, RFC 8030 §5). */
  payload: string;
};

export type PushDevice = {
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** What this device received, in order. */
  received: ReceivedPush[];
};

export type PushRejection = { path: string; status: number; reason: string };

export type PushService = {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** '127.0.0.1:PORT': what PUSH_ENDPOINT_HOSTS would list. */
  host: string;
  /**
   * A new browser-like subscription: a fresh P-256 key pair and 16-byte auth secret, endpoint
   * `${url}/push/<random id>`. With `applicationServerKey` (base64url, as a browser's
   * `pushManager.subscribe` takes it) the subscription is restricted to that VAPID key (RFC 8292 §4).
   */
  device(opts?: { applicationServerKey?: string }): PushDevice;
  /** From now on, deliveries to this device's endpoint answer that status (the subscription expired or was dropped). */
  gone(device: PushDevice, status: 404 | 410): void;
  /** The next `times` (default 1) deliveries to this device answer `status` (e.g. 500 or 429); a 404 or 410 then stays. */
  failNext(device: PushDevice, status: number, times?: number): void;
  /** Every delivery accepted, in order. */
  all(): ReceivedPush[];
  /** Deliveries refused, in order: bad VAPID, bad encryption, missing TTL, unknown endpoint, scripted failures, etc. */
  rejected(): PushRejection[];
  /** Give this as `agent` to `webpush.sendNotification`: web-push speaks HTTPS only, the stand-in plain HTTP. */
  agent: HttpsAgent;
  close(): Promise<void>;
};

/** RFC 8030 §7.2: a push service must carry at least 4096 octets of payload body and answers 413 past its limit. */
const MAX_BODY = 4096;
/** Past the limit, this much more is read and thrown away so an honest sender still reads its 413; beyond it the connection is cut. */
const DRAIN_ALLOWANCE = 16 * 1024;
/** RFC 8292 §2: the JWT's exp must not be more than 24 hours ahead. */
const MAX_EXP_SECONDS = 24 * 60 * 60;
const URGENCIES = ['very-low', 'low', 'normal', 'high'];
const BASE64URL = /^[A-Za-z0-9_-]*$/;

type Refusal = { status: number; reason: string; headers?: Record<string, string> };
type Subscription = {
  id: string;
  device: PushDevice;
  ecdh: ECDH;
  uaPublic: Buffer;
  authSecret: Buffer;
  restrictedTo?: Buffer;
  goneStatus?: 404 | 410;
  failures: number[];
};

class Refused extends Error {
  constructor(
    readonly status: number,
    reason: string,
    readonly headers?: Record<string, string>,
  ) {
    super(reason);
  }
}

function refuse(status: number, reason: string, headers?: Record<string, string>): never {
  throw new Refused(status, reason, headers);
}

const fromBase64url = (value: string, what: string, status = 400): Buffer => {
  if (!BASE64URL.test(value)) refuse(status, `${what} is not base64url`);
  return Buffer.from(value, 'base64url');
};

/** A P-256 public key from its uncompressed point (0x04 || x || y, 65 octets); throws when it is not on the curve. */
const p256PublicKey = (point: Buffer): KeyObject => {
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
};

const headerValue = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * RFC 8292 §3: `Authorization: vapid t=<JWT>, k=<public key>`. The JWT is ES256 (§2, §3.1), signed
 * with the key in k (§3.2, an uncompressed P-256 point in base64url); its aud is the push service's
 * origin, its exp in the future and at most 24 hours ahead, its sub a mailto: or https: URI (§2, §2.1).
 * RFC 8292 §4.2: absent authentication may be answered 401 and invalid authentication 403.
 */
function checkVapid(authorization: string | undefined, origin: string, restrictedTo: Buffer | undefined) {
  const challenge = { 'WWW-Authenticate': 'vapid' };
  const scheme = authorization?.match(/^\s*vapid\s+(.*)$/is);
  if (!scheme) return refuse(401, 'no vapid Authorization (RFC 8292 §3)', challenge);
  const params = new Map<string, string>();
  for (const part of scheme[1].split(',')) {
    const param = part.trim().match(/^([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^\s"]*))$/);
    if (!param) return refuse(403, 'vapid Authorization has a malformed parameter (RFC 8292 §3)');
    params.set(param[1].toLowerCase(), param[2] ?? param[3]);
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) return refuse(403, 'vapid Authorization needs both t and k (RFC 8292 §3.1, §3.2)');

  const keyBytes = fromBase64url(key, 'vapid k', 403);
  let publicKey: KeyObject;
  try {
    publicKey = p256PublicKey(keyBytes);
  } catch {
    return refuse(403, 'vapid k is not an uncompressed P-256 public key (RFC 8292 §3.2)');
  }
  if (restrictedTo && !(restrictedTo.length === keyBytes.length && timingSafeEqual(restrictedTo, keyBytes))) {
    return refuse(403, 'vapid k is not the key this subscription is restricted to (RFC 8292 §4.2)');
  }

  const parts = token.split('.');
  if (parts.length !== 3) return refuse(403, 'vapid t is not a JWS compact serialization (RFC 8292 §2)');
  let header: { alg?: unknown; typ?: unknown };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    header = JSON.parse(fromBase64url(parts[0], 'JWT header', 403).toString('utf8'));
    claims = JSON.parse(fromBase64url(parts[1], 'JWT claims', 403).toString('utf8'));
  } catch {
    return refuse(403, 'vapid t is not a JWT (RFC 8292 §2)');
  }
  if (header?.alg !== 'ES256') return refuse(403, 'vapid JWT is not signed with ES256 (RFC 8292 §2)');
  if (header.typ !== undefined && header.typ !== 'JWT') return refuse(403, 'vapid JWT typ is not JWT (RFC 8292 §2)');
  // JWS ES256 signatures are r || s, 32 octets each (RFC 7518 §3.4)
  const signature = fromBase64url(parts[2], 'JWT signature', 403);
  const signed =
    signature.length === 64 &&
    verifySignature('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  if (!signed) return refuse(403, 'vapid JWT signature does not verify with k (RFC 8292 §2, §3.2)');

  if (claims?.aud !== origin) return refuse(403, `vapid aud is ${JSON.stringify(claims?.aud)}, not ${origin} (RFC 8292 §2)`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || !Number.isInteger(claims.exp)) return refuse(403, 'vapid exp is missing (RFC 8292 §2)');
  if (claims.exp <= now) return refuse(403, 'vapid JWT has expired (RFC 8292 §2)');
  if (claims.exp > now + MAX_EXP_SECONDS) return refuse(403, 'vapid exp is more than 24 hours ahead (RFC 8292 §2)');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    return refuse(403, 'vapid sub is not a mailto: or https: URI (RFC 8292 §2.1)');
  }
  return { sub: claims.sub, aud: claims.aud, exp: claims.exp, publicKey: key };
}

/**
 * RFC 8291 §3.4 and §4 over RFC 8188 §2: the body is salt (16) || rs (uint32) || idlen (1) || keyid
 * (the application server's ECDH public key, 65) || one record of at most rs octets (ciphertext and a
 * 16-octet tag). The key and nonce come from the user agent's key pair and auth secret.
 */
function decrypt(body: Buffer, sub: Subscription): Buffer {
  if (body.length < 21) return refuse(400, 'body is shorter than the aes128gcm header (RFC 8188 §2.1)');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  if (rs < 18) return refuse(400, `record size ${rs} is under 18 (RFC 8188 §2.1)`);
  if (idlen !== 65 || body.length < 21 + idlen) {
    return refuse(400, 'keyid is not the 65-octet application server public key (RFC 8291 §4)');
  }
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length < 17) return refuse(400, 'the record is shorter than a tag and a delimiter (RFC 8188 §2)');
  if (record.length > rs) return refuse(400, 'a push message is one record, no longer than rs (RFC 8291 §4)');

  let ecdhSecret: Buffer;
  try {
    ecdhSecret = sub.ecdh.computeSecret(asPublic);
  } catch {
    return refuse(400, 'keyid is not a P-256 public key (RFC 8291 §4)');
  }
  // RFC 8291 §3.3, §3.4: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, sub.authSecret, keyInfo, 32));
  // RFC 8188 §2.2, §2.3: CEK and NONCE from the salt; the one record has sequence number 0, so the nonce is NONCE itself
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    plaintext = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    return refuse(400, 'body does not decrypt with this subscription’s keys (RFC 8291 §3.4, RFC 8188 §2)');
  }
  // RFC 8188 §2: data || delimiter || zero padding; the last (here the only) record's delimiter is 0x02
  let end = plaintext.length - 1;
  while (end >= 0 && plaintext[end] === 0) end--;
  if (end < 0 || plaintext[end] !== 0x02)
    return refuse(400, 'the record does not end with the last-record delimiter 0x02 (RFC 8188 §2)');
  return plaintext.subarray(0, end);
}

export async function startPushService(opts: { host?: string } = {}): Promise<PushService> {
  const listenHost = opts.host ?? '127.0.0.1';
  const subscriptions = new Map<string, Subscription>();
  const byDevice = new WeakMap<PushDevice, Subscription>();
  const accepted: ReceivedPush[] = [];
  const refused: PushRejection[] = [];
  let messages = 0;

  const server = createServer((req, res) => {
    receive(req, res).catch((err: unknown) => answer(res, 500, `push stand-in failed: ${String(err)}`, {}, true));
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`;
  const origin = new URL(url).origin;
  const host = new URL(url).host;

  const answer = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}, cut = false) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers, ...(cut ? { Connection: 'close' } : {}) });
    // cut: answer, then drop the connection instead of reading the rest of the sender's body
    res.end(body, () => {
      if (cut) res.socket?.destroy();
    });
  };
  const reject = (req: IncomingMessage, res: ServerResponse, refusal: Refusal, cut = false) => {
    refused.push({ path: req.url ?? '', status: refusal.status, reason: refusal.reason });
    answer(res, refusal.status, refusal.reason, refusal.headers, cut);
  };

  /**
   * Reads at most MAX_BODY octets of the body. Up to DRAIN_ALLOWANCE more are read and thrown away
   * ('too-large', answered 413 as usual); past that, or when Content-Length already says so, nothing
   * more is read ('cut': answered 413 and the connection dropped).
   */
  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer | 'too-large' | 'cut'>((resolve) => {
      if (Number(req.headers['content-length']) > MAX_BODY + DRAIN_ALLOWANCE) return resolve('cut');
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (result: Buffer | 'too-large' | 'cut') => {
        if (done) return;
        done = true;
        resolve(result);
      };
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
        else if (size > MAX_BODY + DRAIN_ALLOWANCE) {
          req.pause();
          finish('cut');
        }
      });
      req.on('end', () => finish(size > MAX_BODY ? 'too-large' : Buffer.concat(chunks)));
      req.on('error', () => finish('cut'));
    });

  async function receive(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const tooLarge = { status: 413, reason: `body is over ${MAX_BODY} octets (RFC 8030 §7.2)` };
    if (body === 'cut') return reject(req, res, tooLarge, true);
    const path = new URL(req.url ?? '/', url).pathname;
    const match = path.match(/^\/push\/([A-Za-z0-9_-]+)$/);
    const sub = match ? subscriptions.get(match[1]) : undefined;
    if (!sub) return reject(req, res, { status: 404, reason: 'no such push subscription' });
    if (req.method !== 'POST') {
      return reject(req, res, { status: 405, reason: 'push messages are POSTed (RFC 8030 §5)', headers: { Allow: 'POST' } });
    }
    // RFC 8030 §7.3: an expired or dropped subscription answers 404 or 410 from then on
    if (sub.goneStatus) return reject(req, res, { status: sub.goneStatus, reason: 'push subscription is gone' });
    if (body === 'too-large') return reject(req, res, tooLarge);

    const scripted = sub.failures.shift();
    if (scripted !== undefined) {
      if (scripted === 404 || scripted === 410) sub.goneStatus = scripted;
      return reject(req, res, { status: scripted, reason: `scripted failure ${scripted}` });
    }

    try {
      // RFC 8030 §5.2: TTL is required, delta-seconds
      const ttlHeader = headerValue(req, 'ttl');
      if (ttlHeader === undefined) refuse(400, 'TTL header is missing (RFC 8030 §5.2)');
      if (!/^\d{1,10}$/.test(ttlHeader.trim()))
        refuse(400, `TTL ${JSON.stringify(ttlHeader)} is not delta-seconds (RFC 8030 §5.2)`);
      const ttl = Number(ttlHeader.trim());
      const urgency = headerValue(req, 'urgency');
      if (urgency !== undefined && !URGENCIES.includes(urgency.trim()))
        refuse(400, `Urgency ${JSON.stringify(urgency)} is unknown (RFC 8030 §5.3)`);
      // RFC 8030 §5.4: at most 32 characters of the URL and filename-safe base64 alphabet
      const topic = headerValue(req, 'topic');
      if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic))
        refuse(400, `Topic ${JSON.stringify(topic)} is not valid (RFC 8030 §5.4)`);

      // RFC 8291 §4: aes128gcm only; RFC 9110 §15.5.16: 415 for a content coding the server does not take
      const encoding = headerValue(req, 'content-encoding')?.trim().toLowerCase();
      const encrypted = body.length > 0 || encoding !== undefined;
      if (encrypted && encoding !== 'aes128gcm') {
        refuse(415, `Content-Encoding ${JSON.stringify(encoding ?? null)} is not aes128gcm (RFC 8291 §4)`);
      }

      const vapid = checkVapid(headerValue(req, 'authorization'), origin, sub.restrictedTo);
      const payload = encrypted ? decrypt(body, sub).toString('utf8') : '';

      const headers = Object.fromEntries(Object.keys(req.headers).map((name) => [name, headerValue(req, name)]));
      const push: ReceivedPush = { path, headers, ttl, vapid, payload };
      if (urgency !== undefined) push.urgency = urgency.trim();
      if (topic !== undefined) push.topic = topic;
      accepted.push(push);
      sub.device.received.push(push);
      // RFC 8030 §5: 201 Created with the push message resource in Location; TTL says what the service kept (§5.2)
      answer(res, 201, '', { Location: `${url}/message/${++messages}-${randomBytes(6).toString('hex')}`, TTL: String(ttl) });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      reject(req, res, { status: err.status, reason: err.message, headers: err.headers });
    }
  }

  /** An https.Agent (as web-push requires) that speaks plain HTTP, and only to this stand-in. */
  class StandInAgent extends HttpsAgent {
    override createConnection(options: HttpsRequestOptions): Duplex {
      const target = String(options.host ?? options.hostname ?? '');
      if ((target !== listenHost && target !== `[${listenHost}]`) || Number(options.port) !== port) {
        const socket = new Socket();
        process.nextTick(() =>
          socket.destroy(new Error(`the push stand-in's agent only reaches ${host}, not ${target}:${options.port}`)),
        );
        return socket;
      }
      return createConnection({ host: listenHost, port });
    }
  }
  const agent = new StandInAgent({ keepAlive: false });

  const find = (device: PushDevice) => {
    const sub = byDevice.get(device);
    if (!sub) throw new Error('not a device of this push stand-in');
    return sub;
  };

  return {
    url,
    host,
    device(deviceOpts = {}) {
      const id = randomBytes(16).toString('base64url');
      const ecdh = createECDH('prime256v1');
      const uaPublic = ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const device: PushDevice = {
        subscription: {
          endpoint: `${url}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: uaPublic.toString('base64url'), auth: authSecret.toString('base64url') },
        },
        received: [],
      };
      let restrictedTo: Buffer | undefined;
      if (deviceOpts.applicationServerKey !== undefined) {
        restrictedTo = Buffer.from(deviceOpts.applicationServerKey, 'base64url');
        p256PublicKey(restrictedTo); // throws when it is not a P-256 public key, as pushManager.subscribe does
      }
      const sub: Subscription = { id, device, ecdh, uaPublic, authSecret, restrictedTo, failures: [] };
      subscriptions.set(id, sub);
      byDevice.set(device, sub);
      return device;
    },
    gone(device, status) {
      find(device).goneStatus = status;
    },
    failNext(device, status, times = 1) {
      find(device).failures.push(...Array<number>(times).fill(status));
    },
    all: () => [...accepted],
    rejected: () => [...refused],
    agent,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

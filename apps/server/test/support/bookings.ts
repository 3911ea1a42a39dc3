import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from '../../src/db/client';
import { createJobRunner } from '../../src/platform/jobs';
import { createTokenService } from '../../src/lib/tokens';
import { createAuth } from '../../src/plugins/auth';
import { eventsPlugin } from '../../src/platform/events';
import { cachesPlugin } from '../../src/platform/caches';
import { settledWritesPlugin } from '../../src/platform/settled-writes';
import { registerErrorHandling } from '../../src/plugins/errors';
import { bookingsModule } from '../../src/modules/bookings/bookings.module';
import type { Mail } from '../../src/modules/mail/mail.service';
import { createAccount, type TestApp } from '../helper';

const HOUR = 60 * 60_000;
export const ALL_HOURS = Array.from({ length: 24 }, (_, h) => h);
export const EVERY_HOUR = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: ALL_HOURS }));

export const auth = (token?: string) => (token ? { authorization: token } : {});

/**
 * A verified trainer with the given price, bookable at every hour of every day (UTC), with a 1-hour
 * minimum notice (the product's default, 12 hours, would keep the next 12 hours' slots from tests).
 */
export async function bookableTrainer(
  t: TestApp,
  { price = 200, weekly = EVERY_HOUR, timeZone = 'UTC', minNoticeHours = 1, ...policy }: BookableTrainerOptions = {},
) {
  const trainer = await createAccount(t, 'trainer', { price });
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/trainer/availability',
    headers: auth(trainer.token),
    payload: { timeZone, weekly, minNoticeHours, ...policy },
  });
  if (res.statusCode !== 200) throw new Error(`availability failed: ${res.statusCode} ${res.body}`);
  return trainer;
}

type BookableTrainerOptions = {
  price?: number;
  weekly?: Array<{ weekday: number; hours: number[] }>;
  timeZone?: string;
  minNoticeHours?: number;
  bufferMinutes?: number;
  overrides?: Array<{ date: string; hours: number[] }>;
  location?: { kind: 'address' | 'client' | 'online'; text?: string } | null;
};

/** The start of the whole hour at least `hours` from now, as ISO. */
export const hourFromNow = (hours: number, from = Date.now()) =>
  new Date(Math.ceil((from + hours * HOUR) / HOUR) * HOUR).toISOString();

export const hold = (t: TestApp, token: string | undefined, trainerId: string, startsAt: string) =>
  t.app.inject({ method: 'POST', url: '/api/bookings', headers: auth(token), payload: { trainerId, startsAt } });

export const createOrder = (t: TestApp, token: string | undefined, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/orders', headers: auth(token), payload });

export const capture = (t: TestApp, token: string | undefined, orderId: string) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${encodeURIComponent(orderId)}/capture`, headers: auth(token) });

/** Without a body, as the spec's client sends it; `body` given: sent as JSON. */
export const cancel = (t: TestApp, token: string | undefined, bookingId: string, body?: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/bookings/${bookingId}/cancel`,
    headers: auth(token),
    ...(body ? { payload: body } : {}),
  });

export const slotsOf = async (t: TestApp, trainerId: string) =>
  (await t.app.inject(`/api/trainers/${trainerId}/slots`)).json().slots as string[];

/** Holds, orders and captures a slot; answers the booking id and order id. */
export async function bookAndPay(t: TestApp, userToken: string, trainerId: string, startsAt: string) {
  const held = await hold(t, userToken, trainerId, startsAt);
  if (held.statusCode !== 201) throw new Error(`hold failed: ${held.statusCode} ${held.body}`);
  const bookingId = held.json().booking._id as string;
  const order = await createOrder(t, userToken, { bookingId });
  if (order.statusCode !== 200) throw new Error(`order failed: ${order.statusCode} ${order.body}`);
  const orderId = order.json().id as string;
  const captured = await capture(t, userToken, orderId);
  if (captured.statusCode !== 200) throw new Error(`capture failed: ${captured.statusCode} ${captured.body}`);
  return { bookingId, orderId, capture: captured.json() };
}

/** The raw .eml files in the outbox (the JSON copies leave attachments out). */
export function outboxEml(t: TestApp): string[] {
  const dir = join(t.config.dataDir, 'outbox');
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'));
  } catch {
    return [];
  }
}

/** The decoded body of the first MIME part of a raw mail with this content type (quoted-printable or base64). */
export function mimePart(raw: string, contentType: string): string | undefined {
  const eml = raw.replace(/\r\n/g, '\n');
  const start = eml.indexOf(`Content-Type: ${contentType}`);
  if (start < 0) return undefined;
  const rest = eml.slice(start);
  const headerEnd = rest.indexOf('\n\n');
  const headers = rest.slice(0, headerEnd);
  const body = rest.slice(headerEnd + 2).split(/\n--/)[0];
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/**
 * A small app with only the booking module, on the given database, with a clock the test moves:
 * for rules that depend on the date (daylight saving changes). Mails are kept in `mails`.
 */
export async function buildClockApp(database: Database, jwtSecret: string, start: Date) {
  let clock = start;
  const mails: Mail[] = [];
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  const now = () => clock;
  const jobs = createJobRunner({ db: database.db, log: app.log, now });
  const authz = createAuth(database.db, createTokenService(jwtSecret));
  // answers kept as in the app, so the clock's moves are checked against them too
  await app.register(eventsPlugin, { database });
  await app.register(cachesPlugin);
  await app.register(settledWritesPlugin, { database });
  await app.register(
    bookingsModule({
      database,
      auth: authz,
      jobs,
      now,
      mailer: { send: async (m) => void mails.push(m) },
      config: { publicUrl: 'http://localhost:3000', paypal: { apiBase: 'http://127.0.0.1:9', timeoutMs: 1000 } },
    }),
    { prefix: '/api' },
  );
  await app.ready();
  return {
    app,
    jobs,
    mails,
    setNow(d: Date) {
      clock = d;
    },
  };
}

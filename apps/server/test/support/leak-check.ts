import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client';

/**
 * The leak crawler (issue 13): every JSON answer of every test app is read for what must never
 * reach anyone but its owner, whatever endpoint or test produced it:
 * - a password hash (Argon2's `$argon2` strings);
 * - a session token (JWT) of anyone but the caller;
 * - an account's e-mail address or phone number, unless it is the caller's own.
 *
 * What is legitimately shown to others (docs/product.md#public-and-private-data, docs/product.md#data and
 * docs/product.md#api-contract), so is not checked: names, pictures, titles, descriptions, city, country, price and rating of
 * trainers; reviewers' names and photos; chat senders' names and pictures; the names on both sides of a booking and a
 * payment. Nobody's e-mail or phone is public, trainers' included: only `GET /api/userData` and
 * `GET /api/trainerData` (the caller's own) carry them. The caller is the account of the request's
 * token (`req.caller`, set by the auth plugin); on the login, sign-up and password-reset routes,
 * which have no token yet, it is the account the body's e-mail names; a Google sign-in answers
 * the token of the account Google's credential names, which is the caller's by definition.
 *
 * The operator console (docs/product.md#the-operator-console) shows operators people's e-mails (its
 * search, its audit log): there only tokens are checked, and the console login's token must be its
 * operator's (the body's e-mail), named by the token's `op` claim.
 *
 * Answers that are not JSON (images, the web app) and WebSocket frames are not read here.
 */

type LeakViolation = { request: string; status: number; found: string };

const violations: LeakViolation[] = [];

/** The violations recorded since the last call, which clears them. */
export function takeLeakViolations(): LeakViolation[] {
  return violations.splice(0);
}

const ARGON2 = /\$argon2(?:id|i|d)\$/;
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*/g;
const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;
/** docs/product.md#limits: 11 digits starting 010, 011, 012 or 015. */
const PHONE = /(?<!\d)01[0125]\d{8}(?!\d)/g;

type Person = { id: string; email: string; phone: string };

function claimedId(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { id?: unknown; op?: unknown };
    if (typeof claims.op === 'string') return `operator:${claims.op}`;
    return typeof claims.id === 'string' ? claims.id : undefined;
  } catch {
    return undefined;
  }
}

/** The e-mail a login, sign-up or reset request names as its own. */
function bodyEmail(req: FastifyRequest): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as { rows: T[] }).rows;
}

async function inspect(database: Database, req: FastifyRequest, text: string): Promise<string[]> {
  const found: string[] = [];
  if (ARGON2.test(text)) found.push('a password hash');

  const tokens = [...new Set(text.match(JWT) ?? [])];
  const emails = [...new Set((text.match(EMAIL) ?? []).map((e) => e.toLowerCase()))];
  const phones = [...new Set(text.match(PHONE) ?? [])];
  if (!tokens.length && !emails.length && !phones.length) return found;

  if (req.url.startsWith('/api/console/')) {
    // operators see people's e-mails; a token only the console login's own operator's
    const ownEmail = bodyEmail(req);
    const own = ownEmail
      ? await rows<{ id: string }>(database, sql`select id::text as id from operators where lower(email) = ${ownEmail}`)
      : [];
    const mine = new Set(own.map((o) => `operator:${o.id}`));
    for (const token of tokens) {
      const id = claimedId(token);
      if (!id || !mine.has(id)) found.push(`a session token of ${id ?? 'someone unknown'}`);
    }
    return found;
  }

  // who is asking: the token's account, or (no token yet) the accounts of the body's e-mail
  const callerId = req.caller?.id;
  const ownEmail = bodyEmail(req);
  const me: Person[] = callerId
    ? await rows<Person>(
        database,
        sql`select id::text as id, lower(email) as email, phone from accounts where id = ${callerId}::uuid`,
      )
    : ownEmail
      ? await rows<Person>(
          database,
          sql`select id::text as id, lower(email) as email, phone from accounts where lower(email) = ${ownEmail}`,
        )
      : [];
  const myIds = new Set(me.map((p) => p.id));
  // an e-mail may hold one account of each role (docs/product.md#one-account-per-role): both are the same person's
  const myEmails = new Set([...me.map((p) => p.email), ...(ownEmail && !callerId ? [ownEmail] : [])]);
  const myPhones = new Set(me.map((p) => p.phone).filter(Boolean));

  // a Google sign-in's caller is whoever Google's credential names: the token it answers is theirs
  const isGoogleSignIn = req.method === 'POST' && req.routeOptions.url === '/api/auth/google' && tokens.length === 1;
  for (const token of tokens) {
    const id = claimedId(token);
    if (!isGoogleSignIn && (!id || !myIds.has(id))) found.push(`a session token of ${id ?? 'someone unknown'}`);
  }
  const otherEmails = emails.filter((e) => !myEmails.has(e));
  if (otherEmails.length) {
    const list = sql.join(
      otherEmails.map((e) => sql`${e}`),
      sql`, `,
    );
    const owners = await rows<{ email: string }>(
      database,
      sql`select distinct lower(email) as email from accounts where lower(email) in (${list})`,
    );
    for (const o of owners) found.push(`the e-mail of another account (${o.email})`);
  }
  const otherPhones = phones.filter((p) => !myPhones.has(p));
  if (otherPhones.length) {
    const list = sql.join(
      otherPhones.map((p) => sql`${p}`),
      sql`, `,
    );
    const owners = await rows<{ phone: string }>(
      database,
      sql`select distinct phone from accounts where deleted_at is null and phone in (${list})`,
    );
    for (const o of owners) found.push(`the phone of another account (${o.phone})`);
  }
  return found;
}

/** Reads every JSON answer under /api for leaks; call before `app.ready()`. */
export function installLeakCheck(app: FastifyInstance, database: Database): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/api/')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    if (!text) return payload;
    try {
      for (const found of await inspect(database, req, text))
        violations.push({ request: `${req.method} ${req.url}`, status: reply.statusCode, found });
    } catch {
      // the database is gone (an outage or a closing test): nothing to compare with
    }
    return payload;
  });
}

/**
 * Reads a WebSocket frame the server pushed (test/ws-client.ts): a frame names people by name and
 * picture only, so it never carries a password hash, a session token or an e-mail address outside
 * the text someone wrote.
 */
export function inspectFrame(frame: unknown, text: string): void {
  const written = (frame as { message?: { message?: unknown } }).message?.message;
  const rest = typeof written === 'string' ? text.split(JSON.stringify(written).slice(1, -1)).join('') : text;
  const found: string[] = [];
  if (ARGON2.test(rest)) found.push('a password hash');
  if (rest.match(JWT)) found.push('a session token');
  if (rest.match(EMAIL)) found.push('an e-mail address');
  for (const f of found) violations.push({ request: `WebSocket frame ${rest.slice(0, 200)}`, status: 0, found: f });
}

/** Fails the test that produced a leak, naming the request and what it carried. */
export function assertNoLeaks(): void {
  const found = takeLeakViolations();
  if (found.length)
    throw new Error(`API answers leaked:\n${found.map((v) => `  ${v.request} (${v.status}): ${v.found}`).join('\n')}`);
}

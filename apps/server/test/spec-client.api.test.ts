/**
 * An independent client written against docs/product.md#api-contract, served from another origin that
 * CORS_ORIGINS lists: real HTTP, the browser's CORS rules (a preflight before every call that is
 * not "simple", the answer readable only with Access-Control-Allow-Origin), the raw token in
 * Authorization, the spec's payloads (numbers as form strings, empty strings, identity fields) and
 * the spec's response keys.
 */
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { uniqueEmail, useTestApp } from './helper';

const CLIENT_ORIGIN = 'https://client.example';
/** Not the address the test server listens on: pictures must be built from PUBLIC_URL. */
const PUBLIC_URL = 'https://api.spotter.example';
const t = await useTestApp({ CORS_ORIGINS: CLIENT_ORIGIN, PUBLIC_URL });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const backend = `${base}/api`;

type Answer = { status: number; body: Record<string, unknown> & { message?: string }; headers: Headers };
type CallOptions = { token?: string; json?: unknown; form?: FormData };

/**
 * What a browser does for a cross-origin call: a preflight when the call is not simple (a method
 * other than GET, HEAD or POST, an Authorization header, a JSON body), checked as the browser
 * checks it; then the call, whose answer may be read only when it names the client's origin.
 */
async function call(method: string, path: string, { token, json, form }: CallOptions = {}): Promise<Answer> {
  const url = `${backend}${path}`;
  const headers: Record<string, string> = { origin: CLIENT_ORIGIN };
  if (token) headers.authorization = token;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const unsafeHeaders = Object.keys(headers).filter((h) => h !== 'origin');
  if (!['GET', 'HEAD', 'POST'].includes(method) || unsafeHeaders.length) {
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: CLIENT_ORIGIN,
        'access-control-request-method': method,
        ...(unsafeHeaders.length ? { 'access-control-request-headers': unsafeHeaders.sort().join(',') } : {}),
      },
    });
    expect(pre.status, `preflight ${method} ${path}`).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-origin'), `preflight ${method} ${path}`).toBe(CLIENT_ORIGIN);
    const methods = (pre.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim().toUpperCase());
    if (!['GET', 'HEAD', 'POST'].includes(method)) expect(methods, `preflight ${method} ${path}`).toContain(method);
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    for (const h of unsafeHeaders) expect(allowed, `preflight ${method} ${path}`).toContain(h);
  }
  const res = await fetch(url, {
    method,
    headers,
    body: form ?? (json !== undefined ? JSON.stringify(json) : undefined),
    redirect: 'manual',
  });
  expect(res.headers.get('access-control-allow-origin'), `${method} ${path}`).toBe(CLIENT_ORIGIN);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** The path of an absolute picture URL on PUBLIC_URL, fetched from the test server. */
const onTestServer = (absolute: string) => `${base}${new URL(absolute).pathname}${new URL(absolute).search}`;

async function verifyMailedLink(email: string) {
  const mail = t
    .outbox()
    .filter((m) => m.to === email)
    .at(-1);
  const link = new URL(mail!.links[0]);
  const res = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
}

const user = {
  firstName: 'Laila',
  lastName: 'Hassan',
  email: uniqueEmail('spec-user'),
  password: 'Strong12',
  confirmPassword: 'Strong12',
  phone: '01012345678',
  // a form's values, as strings
  age: '29',
  gender: 'female',
  height: '168',
  weight: '61',
  picture: '',
};
const trainer = {
  firstName: 'Karim',
  lastName: 'Adel',
  email: uniqueEmail('spec-trainer'),
  password: 'Coach123',
  confirmPassword: 'Coach123',
  phone: '01198765432',
  gender: 'male',
  age: '35',
  height: '182',
  weight: '84',
  price: '250',
};
const session = { userToken: '', trainerToken: '', userId: '', trainerId: '' };

describe('a client written against docs/product.md#api-contract, on another origin', () => {
  it('GET /trainers answers viewAllTrainers, with or without a trailing slash', async () => {
    for (const path of ['/trainers', '/trainers/']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(Array.isArray(res.body.viewAllTrainers), path).toBe(true);
    }
  });

  it('POST /users/register and /trainers/register with form strings answer status and message', async () => {
    const u = await call('POST', '/users/register', { json: user });
    expect(u.status, JSON.stringify(u.body)).toBe(201);
    expect(typeof u.body.message).toBe('string');
    const tr = await call('POST', '/trainers/register', { json: trainer });
    expect(tr.status, JSON.stringify(tr.body)).toBe(201);
    expect(typeof tr.body.message).toBe('string');
    await verifyMailedLink(user.email);
    await verifyMailedLink(trainer.email);
  });

  it('POST /users/login and /trainers/login answer message and token', async () => {
    const u = await call('POST', '/users/login', { json: { email: user.email, password: user.password } });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ message: expect.any(String), token: expect.any(String) });
    const tr = await call('POST', '/trainers/login', { json: { email: trainer.email, password: trainer.password } });
    expect(tr.status).toBe(200);
    expect(tr.body).toMatchObject({ message: expect.any(String), token: expect.any(String) });
    session.userToken = u.body.token as string;
    session.trainerToken = tr.body.token as string;
  });

  it('GET /userData and GET /trainerData answer the logged-in account, with or without a trailing slash', async () => {
    const u = await call('GET', '/userData', { token: session.userToken });
    expect(u.status).toBe(200);
    expect(u.body.userData).toMatchObject({ firstName: 'Laila', email: user.email, age: 29, height: 168, weight: 61 });
    session.userId = (u.body.userData as { _id: string })._id;
    for (const path of ['/trainerData', '/trainerData/']) {
      const tr = await call('GET', path, { token: session.trainerToken });
      expect(tr.status, path).toBe(200);
      expect(tr.body.trainerData, path).toMatchObject({ firstName: 'Karim', email: trainer.email, price: 250 });
      session.trainerId = (tr.body.trainerData as { _id: string })._id;
    }
    expect((await call('GET', '/userData/', { token: session.userToken })).status).toBe(200);
  });

  it('GET /trainerData/ without a token is the own-trainer route (401), not a missing trainer', async () => {
    const res = await call('GET', '/trainerData/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: SERVER_MSG.noToken, statusCode: 401, code: 'UNAUTHENTICATED' });
  });

  it('GET /trainerData/{id}, with or without a trailing slash, answers the public trainerData', async () => {
    for (const path of [`/trainerData/${session.trainerId}`, `/trainerData/${session.trainerId}/`]) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body.trainerData, path).toMatchObject({ _id: session.trainerId, firstName: 'Karim', price: 250 });
      expect(res.body.trainerData, path).not.toHaveProperty('email');
    }
    const list = await call('GET', `/trainers/?ids=${session.trainerId}`);
    expect((list.body.viewAllTrainers as Array<{ _id: string }>).map((x) => x._id)).toContain(session.trainerId);
  });

  it('PATCH /user/edit and /trainer/edit take the spec payload, empty strings for untouched fields', async () => {
    const u = await call('PATCH', '/user/edit', {
      token: session.userToken,
      json: { firstName: '', lastName: '', email: '', title: 'Marathon runner', description: '', picture: '' },
    });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(typeof u.body.message).toBe('string');
    const me = (await call('GET', '/userData', { token: session.userToken })).body.userData;
    expect(me).toMatchObject({ firstName: 'Laila', lastName: 'Hassan', email: user.email, title: 'Marathon runner' });

    const tr = await call('PATCH', '/trainer/edit', {
      token: session.trainerToken,
      json: { firstName: 'Kareem', lastName: '', email: '', title: '', description: 'Strength and conditioning', picture: '' },
    });
    expect(tr.status, JSON.stringify(tr.body)).toBe(200);
    const mine = (await call('GET', '/trainerData', { token: session.trainerToken })).body.trainerData;
    expect(mine).toMatchObject({
      firstName: 'Kareem',
      lastName: 'Adel',
      email: trainer.email,
      description: 'Strength and conditioning',
    });
  });

  it('PATCH /{userType}/edit/photo takes the picture URL; every answer carries it as an absolute URL the client can load', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const uploaded = await call('POST', '/images', { token: session.userToken, form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const url = uploaded.body.url as string;

    const res = await call('PATCH', '/user/edit/photo', { token: session.userToken, json: { picture: url } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const picture = ((await call('GET', '/userData', { token: session.userToken })).body.userData as { picture: string }).picture;
    expect(picture).toBe(`${PUBLIC_URL}${url}`);

    // the client echoes the absolute URL it was given
    const echoed = await call('PATCH', '/user/edit/photo', { token: session.userToken, json: { picture } });
    expect(echoed.status, JSON.stringify(echoed.body)).toBe(200);

    // <img src> on another origin: a no-cors load, allowed by Cross-Origin-Resource-Policy
    const img = await fetch(onTestServer(picture), { headers: { origin: CLIENT_ORIGIN } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('POST /reviews/new takes the spec payload (string rating, userToken, reviewer fields); GET /trainer/reviews/{id} answers allReviews', async () => {
    const res = await call('POST', '/reviews/new', {
      token: session.userToken,
      json: {
        rating: '4',
        comment: 'Patient and precise',
        userToken: session.userToken,
        trainerId: session.trainerId,
        reviewerFirstName: 'Someone',
        reviewerLastName: 'Else',
        reviewerProfilePhoto: 'https://elsewhere.example/me.png',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const list = await call('GET', `/trainer/reviews/${session.trainerId}`);
    expect(list.status).toBe(200);
    const [review] = list.body.allReviews as Array<Record<string, unknown>>;
    expect(review).toMatchObject({
      rating: 4,
      comment: 'Patient and precise',
      reviewerFirstName: 'Laila',
      reviewerLastName: 'Hassan',
    });
    expect(review.reviewerProfilePhoto).toMatch(
      new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/api/images/[0-9a-f]{64}\\.webp$`),
    );
    expect((await call('GET', `/trainer/reviews/${session.trainerId}/`)).status).toBe(200);

    // a rating string that is not a whole number from 1 to 5 still answers the spec's message
    for (const rating of ['four', '', '4.5', '9']) {
      const res = await call('POST', '/reviews/new', {
        token: session.userToken,
        json: { rating, comment: 'Nice', trainerId: session.trainerId },
      });
      expect(res.status, rating).toBe(400);
      expect(res.body.message, rating).toBe('Please choose a rating from 1 to 5 stars');
    }
  });

  it('pictures in the trainer list and profile are absolute URLs on PUBLIC_URL', async () => {
    const { accounts } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(accounts)
      .set({ picture: '/api/avatars/spec-client.svg?g=m' })
      .where(eq(accounts.id, session.trainerId));
    const profile = (await call('GET', `/trainerData/${session.trainerId}`)).body.trainerData as { picture: string };
    expect(profile.picture).toBe(`${PUBLIC_URL}/api/avatars/spec-client.svg?g=m`);
    const listed = (
      (await call('GET', `/trainers?ids=${session.trainerId}`)).body.viewAllTrainers as Array<{ _id: string; picture: string }>
    ).find((x) => x._id === session.trainerId);
    expect(listed?.picture).toBe(profile.picture);
    const img = await fetch(onTestServer(profile.picture), { headers: { origin: CLIENT_ORIGIN } });
    expect(img.status).toBe(200);
    expect(img.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('error answers are readable cross-origin and have the one shape', async () => {
    const unknown = await call('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Not found: GET /api/nothing-here', statusCode: 404, code: 'NOT_FOUND' });
    const wrongMethod = await call('DELETE', '/trainers', { token: session.userToken });
    expect(wrongMethod.status).toBe(405);
    expect(Object.keys(wrongMethod.body).sort()).toEqual(['code', 'message', 'statusCode']);
    expect(wrongMethod.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('requests Node cannot parse still answer the one error shape', () => {
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1', () => socket.write(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('answers a broken request line with a JSON 400', async () => {
    const answer = await raw('NOT-HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toEqual({ message: SERVER_MSG.badRequest, statusCode: 400, code: 'BAD_REQUEST' });
  });

  it('answers oversized headers with a JSON 431', async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer)).toEqual({ message: SERVER_MSG.tooLarge, statusCode: 431, code: 'HEADERS_TOO_LARGE' });
  });
});

describe("a spec client's chat calls (docs/product.md#api-contract)", () => {
  it('POST /chats/ with the spec payload answers message; GET /chats/{trainerId} answers allMessages', async () => {
    const sent = await call('POST', '/chats/', {
      token: session.userToken,
      json: {
        message: 'Hello coach',
        messageDate: new Date().toISOString(),
        senderFirstName: 'Laila',
        senderLastName: 'Hassan',
        senderPicture: 'https://elsewhere.example/me.png',
        senderId: session.userId,
        recipientId: session.trainerId,
      },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    expect(sent.body).toHaveProperty('message');
    const thread = await call('GET', `/chats/${session.trainerId}`, { token: session.userToken });
    expect(thread.status).toBe(200);
    const messages = thread.body.allMessages as Array<{ message: string; senderPicture: string }>;
    const hello = messages.find((m) => m.message === 'Hello coach');
    expect(hello).toBeDefined();
    // the sender's own stored photo, as an absolute URL, never the picture the body claimed
    expect(hello!.senderPicture).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/api/images/`));
  });
});

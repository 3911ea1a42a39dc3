import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { MSG, SERVER_MSG, ZTrainerSignUpForm } from '@spotter/shared';
import { createAccount, uniqueEmail, useTestApp, validSignUp, validTrainerSignUp } from './helper';

const t = await useTestApp();
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe.each([
  ['user', 'users', validSignUp],
  ['trainer', 'trainers', validTrainerSignUp],
] as const)('%s sign-up and login', (role, plural, valid) => {
  it('creates the account (201), sends a verification mail, and logs in', async () => {
    const body = valid();
    const res = await post(`/api/${plural}/register`, body);
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(role === 'trainer' ? SERVER_MSG.trainerRegistered : SERVER_MSG.userRegistered);

    const mail = t.outbox().find((m) => m.to === body.email);
    expect(mail?.subject).toContain('Spotter');
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost:3000\/api\/verify\?token=[\w-]{20,}$/);

    const login = await post(`/api/${plural}/login`, { email: body.email.toUpperCase(), password: body.password });
    expect(login.statusCode).toBe(200);
    expect(login.json().message).toBe(SERVER_MSG.loginOk);
    expect(login.json().token.split('.')).toHaveLength(3);
  });

  it('answers 409 for an e-mail already taken in that role, whatever its case', async () => {
    const body = valid();
    expect((await post(`/api/${plural}/register`, body)).statusCode).toBe(201);
    const again = await post(`/api/${plural}/register`, { ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: SERVER_MSG.emailTaken, statusCode: 409, code: 'EMAIL_TAKEN' });
  });

  it('answers 401 with one message for an unknown e-mail and a wrong password alike', async () => {
    const body = valid();
    await post(`/api/${plural}/register`, body);
    const wrong = await post(`/api/${plural}/login`, { email: body.email, password: 'Wrong123' });
    const unknown = await post(`/api/${plural}/login`, { email: uniqueEmail('nobody'), password: body.password });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(SERVER_MSG.badCredentials);
    expect(unknown.json()).toEqual(wrong.json());
  });
});

describe('sign-up validation: every rule with the spec message, nothing stored', () => {
  const long = 'a'.repeat(51);
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['firstName missing', { firstName: undefined }, 'firstName', MSG.required],
    ['firstName empty', { firstName: '' }, 'firstName', MSG.required],
    ['firstName short', { firstName: 'A' }, 'firstName', MSG.nameMin],
    ['firstName long', { firstName: long }, 'firstName', 'Max number of characters is 50'],
    ['lastName short', { lastName: 'B' }, 'lastName', MSG.nameMin],
    ['lastName long', { lastName: long }, 'lastName', 'Max number of characters is 50'],
    ['email empty', { email: '' }, 'email', 'Please enter your Email'],
    ['email bad', { email: 'not-an-email' }, 'email', 'Invalid email format'],
    ['password empty', { password: '', confirmPassword: '' }, 'password', 'Please enter your password'],
    ['password lowercase first', { password: 'strong12', confirmPassword: 'strong12' }, 'password', MSG.passwordShape],
    ['password too long', { password: 'Strong12345', confirmPassword: 'Strong12345' }, 'password', MSG.passwordShape],
    ['password symbol', { password: 'Str!ng12', confirmPassword: 'Str!ng12' }, 'password', MSG.passwordShape],
    ['confirm empty', { confirmPassword: '' }, 'confirmPassword', 'Please confirm your password'],
    ['confirm differs', { confirmPassword: 'Strong13' }, 'confirmPassword', 'Passwords must match'],
    ['phone empty', { phone: '' }, 'phone', MSG.required],
    ['phone bad prefix', { phone: '01312345678' }, 'phone', 'Invalid phone number'],
    ['phone short', { phone: '0101234567' }, 'phone', 'Invalid phone number'],
    ['age text', { age: 'abc' }, 'age', 'Must provide a number'],
    ['age missing', { age: undefined }, 'age', MSG.required],
    ['age under 18', { age: 17 }, 'age', 'Must be 18+'],
    ['age over 100', { age: 101 }, 'age', 'Must be less than 100'],
    ['age fraction', { age: 20.5 }, 'age', MSG.ageInteger],
    ['gender other', { gender: 'other' }, 'gender', MSG.genderInvalid],
    ['gender missing', { gender: undefined }, 'gender', MSG.required],
    ['height text', { height: 'tall' }, 'height', 'Must be a number'],
    ['height negative', { height: -5 }, 'height', 'Positive number only'],
    ['height under 50', { height: 49 }, 'height', 'Must be more than 50cm'],
    ['height over 250', { height: 251 }, 'height', 'Must be less than 250cm'],
    ['weight under 5', { weight: 4 }, 'weight', 'Must be more than 5kg'],
    ['weight over 650', { weight: 651 }, 'weight', MSG.weightMax],
    ['weight fraction', { weight: 60.5 }, 'weight', MSG.wholeNumber],
  ];

  it.each(cases)('%s', async (_name, override, field, message) => {
    const body = validSignUp(override);
    const res = await post('/api/users/register', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
    if (typeof body.email === 'string' && body.email.includes('@')) {
      const login = await post('/api/users/login', { email: body.email, password: 'Strong12' });
      expect(login.statusCode).toBe(401);
    }
  });

  it('a single problem is the message itself', async () => {
    const res = await post('/api/users/register', validSignUp({ phone: '123' }));
    expect(res.json().message).toBe('Invalid phone number');
  });

  it('applies the full rules to trainers too, and the price minimum', async () => {
    const low = await post('/api/trainers/register', validTrainerSignUp({ price: 99 }));
    expect(low.statusCode).toBe(400);
    expect(low.json().errors.price).toBe('Minimum is 100');
    const missing = await post('/api/trainers/register', validTrainerSignUp({ price: undefined }));
    expect(missing.json().errors.price).toBe(MSG.required);
    const mismatch = await post('/api/trainers/register', validTrainerSignUp({ confirmPassword: 'Other123' }));
    expect(mismatch.json().errors.confirmPassword).toBe('Passwords must match');
  });

  it('accepts numeric strings from forms and stores numbers', async () => {
    const body = validSignUp({ age: '31', height: '180', weight: '77' });
    expect((await post('/api/users/register', body)).statusCode).toBe(201);
  });

  it('drops fields it does not know instead of trusting them', async () => {
    const body = validSignUp({
      role: 'trainer',
      emailVerified: true,
      emailVerifiedAt: new Date().toISOString(),
      tokenVersion: 9,
      _id: '00000000-0000-0000-0000-000000000000',
      price: 900,
    });
    expect((await post('/api/users/register', body)).statusCode).toBe(201);
    const token = (await post('/api/users/login', { email: body.email, password: body.password })).json().token;
    const me = (await get('/api/userData', { authorization: token })).json().userData;
    expect(me.role).toBe('user');
    expect(me.emailVerified).toBe(false);
    expect(me._id).not.toBe('00000000-0000-0000-0000-000000000000');
    expect((await post('/api/trainers/login', { email: body.email, password: body.password })).statusCode).toBe(401);
  });

  it('lets one e-mail hold one account of each role', async () => {
    const email = uniqueEmail('both');
    expect((await post('/api/users/register', validSignUp({ email }))).statusCode).toBe(201);
    expect((await post('/api/trainers/register', validTrainerSignUp({ email }))).statusCode).toBe(201);
  });
});

describe('login validation', () => {
  it.each([
    [{ email: '', password: 'Strong12' }, 'email', 'Email is required'],
    [{ email: 'nope', password: 'Strong12' }, 'email', 'Invalid email'],
    [{ email: 'a@b.co', password: '' }, 'password', 'Password is required'],
    [{ email: 'a@b.co', password: 'strong12' }, 'password', 'Password should start with an uppercase letter'],
    [{ email: 'a@b.co', password: 'Abc' }, 'password', 'Password should be more than 3 characters'],
  ])('%j → %s: %s', async (payload, field, message) => {
    const res = await post('/api/users/login', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
  });
});

describe('bad input never gets a 5xx', () => {
  it('malformed JSON is a 400 with a clear message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"firstName": "Nad',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: SERVER_MSG.malformedJson, statusCode: 400, code: 'MALFORMED_JSON' });
  });

  it.each([['[]'], ['null'], ['"text"'], ['42']])('a JSON body of %s is a 400', async (payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().statusCode).toBe(400);
  });

  it('wrong types are 400s', async () => {
    const res = await post('/api/users/register', validSignUp({ firstName: 42, email: ['x@y.z'], phone: { a: 1 } }));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['firstName', 'email', 'phone']));
  });

  it('a body over 100 KB is a 413', async () => {
    const res = await post('/api/users/register', validSignUp({ firstName: 'x'.repeat(120 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: SERVER_MSG.tooLarge, statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an unsupported content type is a 415 JSON answer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().statusCode).toBe(415);
  });

  it('an unknown API path is a JSON 404', async () => {
    const res = await get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().statusCode).toBe(404);
  });
});

describe('own data and tokens', () => {
  it('GET /api/userData answers the user without secrets; Bearer and raw tokens both work', async () => {
    const u = await createAccount(t, 'user', { firstName: 'Laila' });
    for (const authorization of [u.token, `Bearer ${u.token}`]) {
      const res = await get('/api/userData', { authorization });
      expect(res.statusCode).toBe(200);
      const { userData } = res.json();
      expect(userData).toMatchObject({
        firstName: 'Laila',
        email: u.email,
        role: 'user',
        emailVerified: true,
        phone: '01012345678',
        age: 30,
      });
      expect(JSON.stringify(res.json())).not.toMatch(/password|argon|tokenVersion/i);
    }
  });

  it('GET /api/trainerData answers the trainer with price; roles are kept apart with 403', async () => {
    const tr = await createAccount(t, 'trainer', { price: 350 });
    const u = await createAccount(t, 'user');
    const own = await get('/api/trainerData', { authorization: tr.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().trainerData).toMatchObject({ price: 350, rating: 0, ratingCount: 0, email: tr.email });
    expect((await get('/api/trainerData', { authorization: u.token })).statusCode).toBe(403);
    expect((await get('/api/userData', { authorization: tr.token })).statusCode).toBe(403);
  });

  it('no token is 401; forged, tampered, alg:none and expired tokens are 401', async () => {
    const u = await createAccount(t, 'user');
    expect((await get('/api/userData')).statusCode).toBe(401);
    expect((await get('/api/userData')).json().message).toBe(SERVER_MSG.noToken);
    const [h, p, s] = u.token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const otherId = Buffer.from(JSON.stringify({ ...claims, role: 'trainer' })).toString('base64url');
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40)));
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    for (const bad of ['garbage', none, `${h}.${otherId}.${s}`, forged, expired, `${h}.${p}.${s.slice(0, -2)}xx`]) {
      const res = await get('/api/userData', { authorization: bad });
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().message).toBe(SERVER_MSG.badToken);
    }
  });
});

describe('public trainer data', () => {
  it('GET /api/trainerData/:id hides e-mail, phone, age, height and weight', async () => {
    const tr = await createAccount(t, 'trainer', { firstName: 'Karim', price: 150 });
    const res = await get(`/api/trainerData/${tr.id}`);
    expect(res.statusCode).toBe(200);
    const { trainerData } = res.json();
    expect(trainerData).toMatchObject({ _id: tr.id, firstName: 'Karim', price: 150 });
    for (const secret of ['email', 'phone', 'age', 'height', 'weight', 'passwordHash'])
      expect(trainerData).not.toHaveProperty(secret);
    expect(res.body).not.toContain(tr.email);
  });

  it('is 404 for unverified trainers, users, unknown and malformed ids', async () => {
    const unverified = await createAccount(t, 'trainer', {}, { verify: false });
    const u = await createAccount(t, 'user');
    for (const id of [unverified.id, u.id, '3f1c2b9e-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      const res = await get(`/api/trainerData/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SERVER_MSG.trainerNotFound);
    }
  });
});

describe('city and country at sign-up', () => {
  it("a trainer's city is 2-50 characters and the country defaults to Egypt; the spec's payload (no city) still signs up", async () => {
    const missing = await post('/api/trainers/register', validTrainerSignUp({ city: undefined }));
    expect(missing.statusCode).toBe(201);
    // the sign-up screen's schema is the one that asks for the city
    const form = ZTrainerSignUpForm.safeParse(validTrainerSignUp({ city: undefined }));
    expect(form.success).toBe(false);
    expect(form.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['city', MSG.required]]);
    const short = await post('/api/trainers/register', validTrainerSignUp({ city: 'X' }));
    expect(short.json().errors).toEqual({ city: MSG.min(2) });
    const long = await post('/api/trainers/register', validTrainerSignUp({ city: 'x'.repeat(51) }));
    expect(long.json().errors).toEqual({ city: MSG.max(50) });

    const tr = await createAccount(t, 'trainer', { city: 'Dahab' });
    const own = (await get('/api/trainerData', { authorization: tr.token })).json().trainerData;
    expect(own).toMatchObject({ city: 'Dahab', country: 'Egypt' });
    const abroad = await createAccount(t, 'trainer', { city: 'Amman', country: 'Jordan' });
    expect((await get(`/api/trainerData/${abroad.id}`)).json().trainerData).toMatchObject({ city: 'Amman', country: 'Jordan' });
  });

  it("a user may give them; the spec's payload (none) still signs up", async () => {
    const without = await createAccount(t, 'user');
    expect((await get('/api/userData', { authorization: without.token })).json().userData).toMatchObject({
      city: '',
      country: 'Egypt',
    });
    const withCity = await createAccount(t, 'user', { city: 'Giza', country: '' });
    expect((await get('/api/userData', { authorization: withCity.token })).json().userData).toMatchObject({
      city: 'Giza',
      country: 'Egypt',
    });
    const bad = await post('/api/users/register', validSignUp({ country: 'E' }));
    expect(bad.json().errors).toEqual({ country: MSG.min(2) });
  });
});

describe('e-mail verification', () => {
  it('the mailed link verifies once and redirects to the success page of the role', async () => {
    const body = validTrainerSignUp();
    await post('/api/trainers/register', body);
    const link = new URL(t.outbox().find((m) => m.to === body.email)!.links[0]);
    const first = await get(link.pathname + link.search);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/verification/success?role=trainer');
    const token = (await post('/api/trainers/login', { email: body.email, password: body.password })).json().token;
    expect((await get('/api/trainerData', { authorization: token })).json().trainerData.emailVerified).toBe(true);
    expect((await get('/api/verify?token=bogus')).headers.location).toBe('/verification/failed');
    expect((await get('/api/verify')).headers.location).toBe('/verification/failed');
  });

  it('the link opened again by the verified account says it is already verified; an expired one does not', async () => {
    const body = validSignUp();
    await post('/api/users/register', body);
    const link = new URL(t.outbox().find((m) => m.to === body.email)!.links[0]);
    expect((await get(link.pathname + link.search)).headers.location).toBe('/verification/success?role=user');
    expect((await get(link.pathname + link.search)).headers.location).toBe('/verification/success?role=user&already=1');

    const { accountTokens } = await import('../src/db/schema');
    const { eq, sql } = await import('drizzle-orm');
    const { hashLinkToken } = await import('../src/lib/tokens');
    await t.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(accountTokens.tokenHash, hashLinkToken(link.searchParams.get('token')!)));
    expect((await get(link.pathname + link.search)).headers.location).toBe('/verification/failed');
  });

  it('a second, unused link of an account verified by the first says already verified', async () => {
    const u = await createAccount(t, 'user', {}, { verify: false });
    expect((await post('/api/verify/resend', {}, { authorization: u.token })).statusCode).toBe(200);
    const [first, second] = t
      .outbox()
      .filter((m) => m.to === u.email)
      .map((m) => new URL(m.links[0]));
    expect((await get(first.pathname + first.search)).headers.location).toBe('/verification/success?role=user');
    expect((await get(second.pathname + second.search)).headers.location).toBe('/verification/success?role=user&already=1');
  });

  it('resend needs a token, mails a new link, and says when already verified', async () => {
    expect((await post('/api/verify/resend', {})).statusCode).toBe(401);
    const u = await createAccount(t, 'user', {}, { verify: false });
    const before = t.outbox().filter((m) => m.to === u.email).length;
    const res = await post('/api/verify/resend', {}, { authorization: u.token });
    expect(res.json().message).toBe(SERVER_MSG.verifySent);
    const mails = t.outbox().filter((m) => m.to === u.email);
    expect(mails).toHaveLength(before + 1);
    const link = new URL(mails.at(-1)!.links[0]);
    expect((await get(link.pathname + link.search)).headers.location).toBe('/verification/success?role=user');
    expect((await post('/api/verify/resend', {}, { authorization: u.token })).json().message).toBe(SERVER_MSG.alreadyVerified);
  });
});

describe('password reset', () => {
  it('mails a link only to real accounts but answers the same', async () => {
    const u = await createAccount(t, 'user');
    const nobody = uniqueEmail('nobody');
    const a = await post('/api/password/forgot', { email: u.email, role: 'user' });
    const b = await post('/api/password/forgot', { email: nobody, role: 'user' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(t.outbox().some((m) => m.to === nobody)).toBe(false);
    expect(t.outbox().filter((m) => m.to === u.email && /Reset/.test(m.subject))).toHaveLength(1);
  });

  it('sets a new password with the link once, ends older tokens, keeps the password rule', async () => {
    const u = await createAccount(t, 'user');
    await post('/api/password/forgot', { email: u.email, role: 'user' });
    const link = new URL(
      t
        .outbox()
        .filter((m) => m.to === u.email && /Reset/.test(m.subject))
        .at(-1)!.links[0],
    );
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token')!;

    const weak = await post('/api/password/reset', { token, password: 'weak', confirmPassword: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.password).toBe(MSG.passwordShape);
    const mismatch = await post('/api/password/reset', { token, password: 'Newpass1', confirmPassword: 'Newpass2' });
    expect(mismatch.json().errors.confirmPassword).toBe('Passwords must match');

    const ok = await post('/api/password/reset', { token, password: 'Newpass1', confirmPassword: 'Newpass1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(SERVER_MSG.resetDone);

    expect((await get('/api/userData', { authorization: u.token })).statusCode).toBe(401);
    expect((await post('/api/users/login', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await post('/api/users/login', { email: u.email, password: 'Newpass1' })).statusCode).toBe(200);

    const reuse = await post('/api/password/reset', { token, password: 'Other123', confirmPassword: 'Other123' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe(SERVER_MSG.resetInvalid);
  });
});

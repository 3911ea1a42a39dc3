import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GOOGLE_MSG, SERVER_MSG, SETTINGS_MSG } from '@spotter/shared';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { defaultMigrationsDir, migrate } from '../src/db/migrate';
import { accounts, images as imagesTable, weightEntries } from '../src/db/schema';
import { CONTACT_SAVES_PER_HOUR } from '../src/modules/settings/settings.routes';
import { WEIGHT_ENTRIES_MAX } from '../src/modules/settings/settings.service';
import { buildTestApp, createAccount, createFreshPgDatabase, emptyPgliteCluster, uniqueEmail, useTestApp } from './helper';

const t = await useTestApp();
type Method = 'GET' | 'PATCH' | 'DELETE' | 'POST';
const call = (method: Method, url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? { authorization: token } : {}, ...(payload ? { payload } : {}) });
const me = async (role: 'user' | 'trainer', token: string) => {
  const res = await call('GET', role === 'user' ? '/api/userData' : '/api/trainerData', token);
  return res.json()[role === 'user' ? 'userData' : 'trainerData'];
};

function multipart(file: Buffer, filename: string, contentType: string, field = 'file') {
  const boundary = `----spotter${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, file, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (token: string | undefined, file: Buffer, filename = 'photo.png', contentType = 'image/png', field = 'file') => {
  const body = multipart(file, filename, contentType, field);
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? { authorization: token } : {}) },
  });
};
const picture = (format: 'png' | 'jpeg' | 'webp', width = 900, height = 600) => {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  if (format === 'jpeg')
    return img
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker', Artist: 'Someone' } } })
      .toBuffer();
  return img[format]().toBuffer();
};
/** A real PNG header that claims 20000 × 20000 pixels (1.6 GB decoded), and almost no data. */
function hugePngHeader(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20000, 0);
  ihdr.writeUInt32BE(20000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('personal details', () => {
  it('saves names, title and description for the caller only', async () => {
    const u = await createAccount(t, 'user');
    const res = await call('PATCH', '/api/user/edit', u.token, {
      firstName: 'Mona',
      lastName: 'Zaki',
      email: u.email,
      title: 'Runner',
      description: 'Training for a 10K',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SETTINGS_MSG.profileSaved);
    expect(await me('user', u.token)).toMatchObject({
      firstName: 'Mona',
      lastName: 'Zaki',
      title: 'Runner',
      description: 'Training for a 10K',
      emailVerified: true,
    });
  });

  it.each([
    [{ firstName: 'x'.repeat(51) }, 'firstName', 'Max number of characters is 50'],
    [{ lastName: 'y'.repeat(51) }, 'lastName', 'Max number of characters is 50'],
    [{ title: 't'.repeat(26) }, 'title', 'Max number of characters is 25'],
    [{ description: 'd'.repeat(201) }, 'description', 'Max number of characters is 200'],
    [{ email: 'nope' }, 'email', 'Invalid email format'],
  ])('rejects %j with the spec message', async (override, field, message) => {
    const u = await createAccount(t, 'user');
    const res = await call('PATCH', '/api/user/edit', u.token, {
      firstName: 'Mona',
      lastName: 'Zaki',
      email: u.email,
      title: '',
      description: '',
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
    expect((await me('user', u.token)).firstName).toBe('Nadia');
  });

  it('a new e-mail needs verifying again and gets a mail; a taken one is 409', async () => {
    const u = await createAccount(t, 'user');
    const taken = await createAccount(t, 'user');
    const conflict = await call('PATCH', '/api/user/edit', u.token, {
      firstName: 'Nadia',
      lastName: 'Samir',
      email: taken.email,
      currentPassword: u.password,
    });
    expect(conflict.statusCode).toBe(409);
    const fresh = uniqueEmail('moved');
    const res = await call('PATCH', '/api/user/edit', u.token, {
      firstName: 'Nadia',
      lastName: 'Samir',
      email: fresh,
      currentPassword: u.password,
    });
    expect(res.json().message).toBe(SETTINGS_MSG.profileSavedVerify);
    expect(await me('user', u.token)).toMatchObject({ email: fresh, emailVerified: false });
    expect(t.outbox().some((m) => m.to === fresh && /Verify/.test(m.subject))).toBe(true);
  });

  it('trainers edit their price, at least 100 whole dollars', async () => {
    const tr = await createAccount(t, 'trainer');
    const base = { firstName: 'Omar', lastName: 'Farouk', email: tr.email, title: 'Coach', description: '' };
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { ...base, price: 99 })).json().errors.price).toBe(
      'Minimum is 100',
    );
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { ...base, price: 150.5 })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { ...base, price: 320 })).statusCode).toBe(200);
    expect(await me('trainer', tr.token)).toMatchObject({ price: 320, firstName: 'Omar' });
  });

  it('never lets a body id choose whose profile changes', async () => {
    const victim = await createAccount(t, 'user', { firstName: 'Victim' });
    const attacker = await createAccount(t, 'user');
    const res = await call('PATCH', '/api/user/edit', attacker.token, {
      firstName: 'Hacked',
      lastName: 'Hacked',
      email: attacker.email,
      _id: victim.id,
      id: victim.id,
      trainerId: victim.id,
      userToken: victim.token,
    });
    expect(res.statusCode).toBe(200);
    expect((await me('user', victim.token)).firstName).toBe('Victim');
    expect((await me('user', attacker.token)).firstName).toBe('Hacked');
  });
});

describe('personal details: a PATCH changes only what it carries', () => {
  it("the spec's client sends blanks for what it leaves alone: only the title changes", async () => {
    const u = await createAccount(t, 'user', { firstName: 'Keep', lastName: 'Mine' });
    await call('PATCH', '/api/user/edit', u.token, { title: 'Old', description: 'Stays' });
    const res = await call('PATCH', '/api/user/edit', u.token, {
      firstName: '',
      lastName: '',
      email: '',
      title: 'New',
      description: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SETTINGS_MSG.profileSaved);
    expect(await me('user', u.token)).toMatchObject({
      firstName: 'Keep',
      lastName: 'Mine',
      email: u.email,
      emailVerified: true,
      title: 'New',
      description: 'Stays',
    });
  });

  it('every field is optional; null clears the title or the description', async () => {
    const u = await createAccount(t, 'user', { firstName: 'Keep' });
    await call('PATCH', '/api/user/edit', u.token, { title: 'Runner', description: 'Training' });
    expect((await call('PATCH', '/api/user/edit', u.token, {})).statusCode).toBe(200);
    expect((await call('PATCH', '/api/user/edit', u.token, { lastName: 'Only' })).statusCode).toBe(200);
    expect((await call('PATCH', '/api/user/edit', u.token, { description: null })).statusCode).toBe(200);
    expect(await me('user', u.token)).toMatchObject({ firstName: 'Keep', lastName: 'Only', title: 'Runner', description: '' });
  });

  it('accepts numbers sent as numeric strings, as sign-up does', async () => {
    const tr = await createAccount(t, 'trainer');
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { price: '150' })).statusCode).toBe(200);
    expect(
      (await call('PATCH', '/api/trainer/contact', tr.token, { phone: '01012345678', weight: '70', height: '171' })).statusCode,
    ).toBe(200);
    expect(await me('trainer', tr.token)).toMatchObject({ price: 150, weight: 70, height: 171 });
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { price: 'cheap' })).json().errors.price).toBe('Must be a number');
  });
});

describe('personal details: city and country', () => {
  it.each(['user', 'trainer'] as const)('a %s sets them; blank leaves them; they are answered and filterable', async (role) => {
    const acc = await createAccount(t, role);
    const town = `Movetown${Date.now().toString(36)}${role}`;
    const edit = (payload: object) => call('PATCH', `/api/${role}/edit`, acc.token, payload);
    expect((await edit({ city: ` ${town} `, country: 'Jordan' })).statusCode).toBe(200);
    expect((await edit({ city: '', country: '   ' })).statusCode).toBe(200);
    expect(await me(role, acc.token)).toMatchObject({ city: town, country: 'Jordan' });
    const bad = await edit({ city: 'x'.repeat(51), country: 'J' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['city', 'country']);
    if (role === 'trainer') {
      const listed = (await call('GET', `/api/trainers?city=${town.toUpperCase()}`)).json().viewAllTrainers;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ _id: acc.id, city: town, country: 'Jordan' });
      expect((await call('GET', `/api/trainerData/${acc.id}`)).json().trainerData).toMatchObject({
        city: town,
        country: 'Jordan',
      });
    }
  });
});

describe('personal details: a new e-mail needs the current password', () => {
  it('missing or wrong → 400 under currentPassword, and nothing changes', async () => {
    const u = await createAccount(t, 'user');
    const fresh = uniqueEmail('moved');
    const missing = await call('PATCH', '/api/user/edit', u.token, { firstName: 'Changed', email: fresh });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.currentPassword).toBe(SETTINGS_MSG.currentPasswordForEmail);
    const wrong = await call('PATCH', '/api/user/edit', u.token, {
      firstName: 'Changed',
      email: fresh,
      currentPassword: 'Wrong123',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.currentPassword).toBe(SETTINGS_MSG.wrongPassword);
    expect(await me('user', u.token)).toMatchObject({ email: u.email, firstName: 'Nadia', emailVerified: true });
    expect(t.outbox().some((m) => m.to === fresh)).toBe(false);
    // the same e-mail, in any case, is not a change
    expect(
      (await call('PATCH', '/api/user/edit', u.token, { email: u.email.toUpperCase(), firstName: 'Changed' })).statusCode,
    ).toBe(200);
  });
});

describe('wrong passwords on the settings screens are limited per account', () => {
  it('after 5 wrong passwords (change password, e-mail, delete) the next is 429 with a message, even a right one', async () => {
    const u = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const wrongChange = { oldPassword: 'Wrong123', newPassword: 'Newpass1', confirmPassword: 'Newpass1' };
    for (let i = 0; i < 3; i++) expect((await call('PATCH', '/api/user/password', u.token, wrongChange)).statusCode).toBe(400);
    expect(
      (await call('PATCH', '/api/user/edit', u.token, { email: uniqueEmail(), currentPassword: 'Wrong123' })).statusCode,
    ).toBe(400);
    expect((await call('DELETE', '/api/user', u.token, { password: 'Wrong123' })).statusCode).toBe(400);

    const locked = await call('DELETE', '/api/user', u.token, { password: u.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many wrong passwords\. Try again in 1[45] minutes\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect((await call('PATCH', '/api/user/password', u.token, { ...wrongChange, oldPassword: u.password })).statusCode).toBe(
      429,
    );
    expect((await call('GET', '/api/userData', u.token)).statusCode).toBe(200);
    // another account is not affected
    expect(
      (
        await call('PATCH', '/api/user/password', other.token, {
          oldPassword: other.password,
          newPassword: 'Newpass1',
          confirmPassword: 'Newpass1',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a right password forgives the earlier wrong ones', async () => {
    const u = await createAccount(t, 'user');
    const change = (oldPassword: string, newPassword: string) =>
      call('PATCH', '/api/user/password', u.token, { oldPassword, newPassword, confirmPassword: newPassword });
    for (let i = 0; i < 4; i++) expect((await change('Wrong123', 'Newpass1')).statusCode).toBe(400);
    const ok = await change(u.password, 'Newpass1');
    expect(ok.statusCode).toBe(200);
    const token = ok.json().token;
    for (let i = 0; i < 4; i++) {
      const res = await call('PATCH', '/api/user/password', token, {
        oldPassword: 'Wrong123',
        newPassword: 'Newpass2',
        confirmPassword: 'Newpass2',
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('rights', () => {
  it('a user token on trainer routes is 403, the reverse too, no token is 401', async () => {
    const u = await createAccount(t, 'user');
    const tr = await createAccount(t, 'trainer');
    const body = { firstName: 'Abc', lastName: 'Def', email: 'a@b.co' };
    expect((await call('PATCH', '/api/trainer/edit', u.token, body)).statusCode).toBe(403);
    expect((await call('PATCH', '/api/user/edit', tr.token, body)).statusCode).toBe(403);
    expect((await call('PATCH', '/api/user/edit', undefined, body)).statusCode).toBe(401);
    expect(
      (await call('PATCH', '/api/trainer/contact', u.token, { phone: '01012345678', weight: 70, height: 170 })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', '/api/trainer', u.token, { password: 'Strong12' })).statusCode).toBe(403);
  });
});

describe('photos', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    'stores a real %s re-encoded, at most 512 px, without EXIF, cached for a year',
    async (format) => {
      const u = await createAccount(t, 'user');
      const res = await upload(u.token, await picture(format), `me.${format}`, `image/${format}`);
      expect(res.statusCode).toBe(201);
      const { url } = res.json();
      expect(url).toMatch(/^\/api\/images\/[0-9a-f]{64}\.webp$/);
      const img = await t.app.inject(url);
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/webp');
      expect(img.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(img.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width!, meta.height!)).toBe(512);
      expect(meta.exif).toBeUndefined();
      expect(img.rawPayload.includes(Buffer.from('secret-exif-marker'))).toBe(false);

      expect((await call('PATCH', '/api/user/edit/photo', u.token, { picture: url })).json().message).toBe(
        SETTINGS_MSG.photoSaved,
      );
      expect((await me('user', u.token)).picture).toBe(t.config.publicUrl + url);
    },
  );

  it('stores the relative address when the absolute URL is sent back, and removes the old photo once replaced', async () => {
    const u = await createAccount(t, 'user');
    const first = (await upload(u.token, await picture('png', 120, 120))).json().url as string;
    const second = (await upload(u.token, await picture('png', 140, 140))).json().url as string;
    expect((await call('PATCH', '/api/user/edit/photo', u.token, { picture: `http://localhost:3000${first}` })).statusCode).toBe(
      200,
    );
    const [stored] = await t.database.db.select({ picture: accounts.picture }).from(accounts).where(eq(accounts.id, u.id));
    expect(stored.picture).toBe(first);

    // uploads younger than an hour are kept (one is uploaded before it is chosen); this one is older
    await t.database.db
      .update(imagesTable)
      .set({ createdAt: new Date(Date.now() - 2 * 60 * 60_000) })
      .where(eq(imagesTable.ownerId, u.id));
    expect((await call('PATCH', '/api/user/edit/photo', u.token, { picture: second })).statusCode).toBe(200);
    expect((await me('user', u.token)).picture).toBe(t.config.publicUrl + second);
    expect((await t.app.inject(first)).statusCode).toBe(404);
    expect((await t.app.inject(second)).statusCode).toBe(200);
  });

  it('judges by content: a text file named .png is refused, nothing stored', async () => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, Buffer.from('definitely not a picture'), 'evil.png', 'image/png');
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(SETTINGS_MSG.imageType);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const u = await createAccount(t, 'user');
    const big = Buffer.concat([await picture('png', 10, 10), Buffer.alloc(6 * 1024 * 1024, 1)]);
    const res = await upload(u.token, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(SETTINGS_MSG.imageTooLarge);
  });

  it('refuses a 20000 × 20000 header before decoding it', async () => {
    const u = await createAccount(t, 'user');
    const before = process.memoryUsage().rss;
    const res = await upload(u.token, hugePngHeader());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SETTINGS_MSG.imageTooManyPixels);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('needs a token, and a multipart "file" field', async () => {
    const u = await createAccount(t, 'user');
    expect((await upload(undefined, await picture('png'))).statusCode).toBe(401);
    expect((await upload(u.token, await picture('png'), 'a.png', 'image/png', 'other')).statusCode).toBe(400);
    const json = await call('POST', '/api/images', u.token, { file: 'x' });
    expect(json.statusCode).toBe(415);
  });

  it('only an image the caller uploaded can become their picture', async () => {
    const u = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const { url } = (await upload(other.token, await picture('png', 300, 300))).json();
    for (const bad of [url, 'https://evil.example/x.png', '/api/images/abc.webp', 'javascript:alert(1)']) {
      const res = await call('PATCH', '/api/user/edit/photo', u.token, { picture: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(SETTINGS_MSG.notOurImage);
    }
    expect((await me('user', u.token)).picture).toBe('');
  });

  it('answers 404 for an unknown image', async () => {
    expect((await t.app.inject(`/api/images/${'a'.repeat(64)}.webp`)).statusCode).toBe(404);
    expect((await t.app.inject('/api/images/nope.webp')).statusCode).toBe(404);
  });
});

describe('contact info and weights', () => {
  it('saves phone, website, weight and height; each weight is a point of the chart, after the sign-up weight', async () => {
    const u = await createAccount(t, 'user', { weight: 65 });
    for (const weight of [70, 68]) {
      const res = await call('PATCH', '/api/user/contact', u.token, {
        phone: '01212345678',
        website: 'https://nadia.example',
        weight,
        height: 171,
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await me('user', u.token)).toMatchObject({
      phone: '01212345678',
      website: 'https://nadia.example',
      weight: 68,
      height: 171,
    });
    const weights = (await call('GET', '/api/user/weights', u.token)).json().weights;
    expect(weights.map((w: { weight: number }) => w.weight)).toEqual([65, 70, 68]);
  });

  it('keeps at most 1000 weights per account, dropping the oldest', async () => {
    const u = await createAccount(t, 'user');
    const start = Date.now() - 2000 * 60_000;
    await t.database.db.insert(weightEntries).values(
      Array.from({ length: WEIGHT_ENTRIES_MAX }, (_, i) => ({
        accountId: u.id,
        weight: i === 0 ? 99 : 60,
        recordedAt: new Date(start + i * 60_000),
      })),
    );
    expect(
      (await call('PATCH', '/api/user/contact', u.token, { phone: '01012345678', weight: 61, height: 170 })).statusCode,
    ).toBe(200);
    const weights = (await call('GET', '/api/user/weights', u.token)).json().weights as Array<{ weight: number }>;
    expect(weights).toHaveLength(WEIGHT_ENTRIES_MAX);
    expect(weights[0].weight).toBe(60);
    expect(weights.at(-1)!.weight).toBe(61);
  });

  it(`allows ${CONTACT_SAVES_PER_HOUR} contact saves an hour per account, then 429 with a message`, async () => {
    const u = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const body = { phone: '01012345678', weight: 70, height: 170 };
    for (let i = 0; i < CONTACT_SAVES_PER_HOUR; i++)
      expect((await call('PATCH', '/api/user/contact', u.token, body)).statusCode).toBe(200);
    const res = await call('PATCH', '/api/user/contact', u.token, body);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^You saved your contact info too many times this hour\. Try again in \d+ minutes?\.$/);
    // the sign-up weight, then one point per save
    expect((await call('GET', '/api/user/weights', u.token)).json().weights).toHaveLength(CONTACT_SAVES_PER_HOUR + 1);
    expect((await call('PATCH', '/api/user/contact', other.token, body)).statusCode).toBe(200);
  });

  it.each([
    [{ phone: '01312345678' }, 'phone', 'Invalid phone number'],
    [{ website: 'ftp://x.example' }, 'website', 'Enter a web address starting with http:// or https://'],
    [{ website: 'javascript:alert(1)' }, 'website', 'Enter a web address starting with http:// or https://'],
    [{ weight: 4 }, 'weight', 'Must be more than 5kg'],
    [{ height: 251 }, 'height', 'Must be less than 250cm'],
  ])('rejects %j', async (override, field, message) => {
    const u = await createAccount(t, 'user');
    const res = await call('PATCH', '/api/user/contact', u.token, {
      phone: '01012345678',
      website: '',
      weight: 70,
      height: 170,
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
  });
});

describe('the weight chart starts from the sign-up weight', () => {
  const weightsOf = async (role: 'user' | 'trainer', token: string) =>
    ((await call('GET', `/api/${role}/weights`, token)).json().weights as Array<{ weight: number }>).map((w) => w.weight);

  it('a new user has the sign-up weight as the first point; a save in settings adds the next', async () => {
    const u = await createAccount(t, 'user', { weight: 70 });
    expect(await weightsOf('user', u.token)).toEqual([70]);
    expect(
      (await call('PATCH', '/api/user/contact', u.token, { phone: '01012345678', weight: 68, height: 170 })).statusCode,
    ).toBe(200);
    expect(await weightsOf('user', u.token)).toEqual([70, 68]);
  });

  it('so does a new trainer', async () => {
    const tr = await createAccount(t, 'trainer', { weight: 82 });
    expect(await weightsOf('trainer', tr.token)).toEqual([82]);
    expect(
      (await call('PATCH', '/api/trainer/contact', tr.token, { phone: '01012345678', weight: 80, height: 180 })).statusCode,
    ).toBe(200);
    expect(await weightsOf('trainer', tr.token)).toEqual([82, 80]);
  });

  it('the first point is written in the transaction that creates the account, dated as the account', async () => {
    const u = await createAccount(t, 'user', { weight: 77 });
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, u.id));
    const entries = await t.database.db.select().from(weightEntries).where(eq(weightEntries.accountId, u.id));
    expect(entries).toHaveLength(1);
    expect(entries[0].weight).toBe(77);
    // now() is the transaction's start: the same instant only when both rows came from one transaction
    expect(entries[0].recordedAt.getTime()).toBe(account.createdAt.getTime());
  });

  it('a sign-up refused for a taken e-mail adds no point to the existing account', async () => {
    const u = await createAccount(t, 'user', { weight: 70 });
    const again = await call('POST', '/api/users/register', undefined, {
      firstName: 'Other',
      lastName: 'Person',
      email: u.email,
      password: 'Strong12',
      confirmPassword: 'Strong12',
      phone: '01012345678',
      age: 30,
      gender: 'male',
      height: 170,
      weight: 90,
    });
    expect(again.statusCode).toBe(409);
    expect(await weightsOf('user', u.token)).toEqual([70]);
  });

  it('an account a first Google sign-in creates has no weight yet: no point until one is saved', async () => {
    // Google's key server, played on 127.0.0.1 (as google-sign-in.api.test.ts does)
    const CLIENT_ID = '1234567890-spotter.apps.googleusercontent.com';
    const keys = await generateKeyPair('RS256');
    const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const g = await buildTestApp({
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_JWKS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`,
    });
    try {
      const credential = await new SignJWT({ email: uniqueEmail('google'), email_verified: true, given_name: 'Salma' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer('https://accounts.google.com')
        .setAudience(CLIENT_ID)
        .setSubject('110169484474386276334')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(keys.privateKey);
      const signUp = await g.app.inject({ method: 'POST', url: '/api/auth/google', payload: { role: 'user', credential } });
      expect(signUp.json().message).toBe(GOOGLE_MSG.signedUp);
      const headers = { authorization: signUp.json().token as string };
      expect((await g.app.inject({ url: '/api/user/weights', headers })).json().weights).toEqual([]);
      const save = { phone: '01012345678', weight: 80, height: 175 };
      expect((await g.app.inject({ method: 'PATCH', url: '/api/user/contact', headers, payload: save })).statusCode).toBe(200);
      const weights = (await g.app.inject({ url: '/api/user/weights', headers })).json().weights as Array<{ weight: number }>;
      expect(weights.map((w) => w.weight)).toEqual([80]);
    } finally {
      await g.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('migration 0009: accounts made before the sign-up weight was a point get it now', () => {
  it('adds the weight, dated at sign-up, to each live account that has a weight and no point yet', async () => {
    // on PostgreSQL a database of this test's own: the shared one is migrated already
    const fresh = await createFreshPgDatabase();
    const d = await openDatabase(fresh ? { url: fresh.url } : { inMemory: true, loadDataDir: await emptyPgliteCluster() });
    const all = defaultMigrationsDir();
    const upTo0008 = mkdtempSync(join(tmpdir(), 'spotter-migrations-'));
    try {
      for (const f of readdirSync(all).filter((name) => name.endsWith('.sql') && name < '0009'))
        copyFileSync(join(all, f), join(upTo0008, f));
      await migrate(d, upTo0008);
      const signedUp = new Date('2025-03-01T09:00:00.000Z');
      const person = (role: 'user' | 'trainer', weight: number) => ({
        role,
        email: uniqueEmail('before-0009'),
        passwordHash: '!',
        firstName: 'Early',
        lastName: 'Member',
        gender: 'female' as const,
        age: 30,
        height: 170,
        weight,
        createdAt: signedUp,
      });
      // with the columns of 0008 named (drizzle's insert would name every column of today's schema)
      const insertOld = async (p: ReturnType<typeof person> & { deletedAt?: Date }) => {
        const res = await d.db.execute(sql`insert into accounts
          (role, email, password_hash, first_name, last_name, gender, age, height, weight, created_at, deleted_at)
          values (${p.role}, ${p.email}, ${p.passwordHash}, ${p.firstName}, ${p.lastName}, ${p.gender}, ${p.age},
            ${p.height}, ${p.weight}, ${p.createdAt.toISOString()}::timestamptz, ${p.deletedAt?.toISOString() ?? null}::timestamptz)
          returning id`);
        return { id: (res as unknown as { rows: Array<{ id: string }> }).rows[0].id };
      };
      const [user, trainer, saved, google, deleted] = [
        await insertOld(person('user', 70)),
        await insertOld(person('trainer', 84)),
        await insertOld(person('user', 66)),
        // a Google sign-in has no weight until one is saved in settings
        await insertOld(person('user', 0)),
        await insertOld({ ...person('user', 60), deletedAt: new Date() }),
      ];
      // saved in settings already: the chart has its points, nothing is added
      await d.db.insert(weightEntries).values({ accountId: saved.id, weight: 66, recordedAt: new Date('2025-04-01T09:00:00Z') });

      // 0009 first, then whatever later migrations there are
      expect((await migrate(d))[0]).toBe('0009_sign_up_weights.sql');
      const points = (id: string) =>
        d.db
          .select({ weight: weightEntries.weight, recordedAt: weightEntries.recordedAt })
          .from(weightEntries)
          .where(eq(weightEntries.accountId, id));
      expect(await points(user.id)).toEqual([{ weight: 70, recordedAt: signedUp }]);
      expect(await points(trainer.id)).toEqual([{ weight: 84, recordedAt: signedUp }]);
      expect((await points(saved.id)).map((p) => p.weight)).toEqual([66]);
      expect(await points(google.id)).toEqual([]);
      expect(await points(deleted.id)).toEqual([]);
    } finally {
      await d.close();
      await fresh?.drop();
      rmSync(upTo0008, { recursive: true, force: true });
    }
  });
});

describe('change password', () => {
  it('refuses a wrong old password; on success older tokens die and the fresh one works', async () => {
    const u = await createAccount(t, 'user');
    const wrong = await call('PATCH', '/api/user/password', u.token, {
      oldPassword: 'Wrong123',
      newPassword: 'Newpass1',
      confirmPassword: 'Newpass1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.oldPassword).toBe(SETTINGS_MSG.wrongPassword);
    const weak = await call('PATCH', '/api/user/password', u.token, {
      oldPassword: u.password,
      newPassword: 'weak',
      confirmPassword: 'weak',
    });
    expect(weak.json().errors.newPassword).toBeDefined();
    const mismatch = await call('PATCH', '/api/user/password', u.token, {
      oldPassword: u.password,
      newPassword: 'Newpass1',
      confirmPassword: 'Newpass2',
    });
    expect(mismatch.json().errors.confirmPassword).toBe('Passwords must match');

    const ok = await call('PATCH', '/api/user/password', u.token, {
      oldPassword: u.password,
      newPassword: 'Newpass1',
      confirmPassword: 'Newpass1',
    });
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json().token;
    expect((await call('GET', '/api/userData', u.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/userData', fresh)).statusCode).toBe(200);
    expect((await call('POST', '/api/users/login', undefined, { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await call('POST', '/api/users/login', undefined, { email: u.email, password: 'Newpass1' })).statusCode).toBe(200);
  });
});

describe('notifications', () => {
  it('keeps the choices and shows them', async () => {
    const tr = await createAccount(t, 'trainer');
    expect((await me('trainer', tr.token)).notifications).toEqual({ account: true, marketing: false });
    expect((await call('PATCH', '/api/trainer/notifications', tr.token, { account: false, marketing: true })).statusCode).toBe(
      200,
    );
    expect((await me('trainer', tr.token)).notifications).toEqual({ account: false, marketing: true });
    expect((await call('PATCH', '/api/trainer/notifications', tr.token, { account: 'false', marketing: true })).statusCode).toBe(
      400,
    );
  });
});

describe('delete account', () => {
  it('needs the password; then removes personal data and photos, keeps reviews as Former member, ends tokens', async () => {
    const u = await createAccount(t, 'user', { firstName: 'Leaving' });
    const tr = await createAccount(t, 'trainer');
    const { url } = (await upload(u.token, await picture('png', 100, 100))).json();
    await call('PATCH', '/api/user/edit/photo', u.token, { picture: url });
    await call('POST', '/api/reviews/new', u.token, { trainerId: tr.id, rating: 5, comment: 'Great' });

    const wrong = await call('DELETE', '/api/user', u.token, { password: 'Wrong123' });
    expect(wrong.statusCode).toBe(400);
    expect((await call('GET', '/api/userData', u.token)).statusCode).toBe(200);

    const ok = await call('DELETE', '/api/user', u.token, { password: u.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(SETTINGS_MSG.accountDeleted);
    expect((await call('GET', '/api/userData', u.token)).statusCode).toBe(401);
    expect((await call('POST', '/api/users/login', undefined, { email: u.email, password: u.password })).json().message).toBe(
      SERVER_MSG.badCredentials,
    );
    expect((await t.app.inject(url)).statusCode).toBe(404);
    // the weight chart goes too, its sign-up point with it
    expect(await t.database.db.select().from(weightEntries).where(eq(weightEntries.accountId, u.id))).toEqual([]);
    const [review] = (await t.app.inject(`/api/trainer/reviews/${tr.id}`)).json().allReviews;
    expect(review).toMatchObject({
      reviewerFirstName: 'Former',
      reviewerLastName: 'member',
      reviewerProfilePhoto: '',
      rating: 5,
    });
    expect((await t.app.inject(`/api/trainerData/${tr.id}`)).json().trainerData).toMatchObject({ rating: 5, ratingCount: 1 });
    // the address is free again
    expect(
      (
        await call('POST', '/api/users/register', undefined, {
          firstName: 'Back',
          lastName: 'Again',
          email: u.email,
          password: 'Strong12',
          confirmPassword: 'Strong12',
          phone: '01012345678',
          age: 30,
          gender: 'male',
          height: 170,
          weight: 70,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('a deleted trainer leaves the list', async () => {
    const tr = await createAccount(t, 'trainer');
    expect((await t.app.inject(`/api/trainerData/${tr.id}`)).statusCode).toBe(200);
    await call('DELETE', '/api/trainer', tr.token, { password: tr.password });
    expect((await t.app.inject(`/api/trainerData/${tr.id}`)).statusCode).toBe(404);
  });
});

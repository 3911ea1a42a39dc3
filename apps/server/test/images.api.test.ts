import { crc32, deflateSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { images } from '../src/db/schema';
import { createWorkQueue, QueueFullError } from '../src/lib/work-queue';
import { IMAGE_LIMITS, IMAGES_MSG } from '../src/modules/images/images.messages';
import { createImagesService } from '../src/modules/images/images.service';
import { createAccount, useTestApp } from './helper';

const t = await useTestApp();
const service = createImagesService({ db: t.database.db });

function multipart(file: Buffer) {
  const boundary = `----spotter${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
}
const upload = (token: string, file: Buffer) => {
  const { payload, 'content-type': contentType } = multipart(file);
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload,
    headers: { authorization: token, 'content-type': contentType },
  });
};
const flat = (format: 'png' | 'jpeg' | 'webp', width = 64, height = 64, r = 200, g = 80) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b: 40 } } })
    .toFormat(format)
    .toBuffer();
/** A photo no earlier run stored (the PostgreSQL test database is shared and kept). */
const uniquePng = () => flat('png', 24, 24, Math.floor(Math.random() * 256), Math.floor(Math.random() * 256));

const pngChunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
};
/** A small valid PNG with `chunks` inserted right after its IHDR (which ends at byte 33). */
const pngWith = async (chunks: Buffer[]) => {
  const png = await flat('png');
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
};
const inflatingTo = (bytes: number) => deflateSync(Buffer.alloc(bytes, 0x41), { level: 9 });
/**
 * libpng inflates each zTXt up to 8 MB (larger ones it skips), so the bomb is eight chunks of
 * 7 MB: 56 MB of text from a 58 KB file.
 */
const zTxtBomb = () =>
  pngWith(
    Array.from({ length: 8 }, (_, i) =>
      pngChunk('zTXt', Buffer.concat([Buffer.from(`Comment${i}\0\0`, 'latin1'), inflatingTo(7 * 1024 * 1024)])),
    ),
  );
const iccpBomb = () =>
  pngWith([pngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), inflatingTo(50 * 1024 * 1024)]))]);

/** JPEG segments `marker` with `size` payload bytes, inserted after the SOI. */
const jpegWith = async (segments: Buffer[], base?: Buffer) => {
  const jpeg = base ?? (await flat('jpeg'));
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
};
const jpegSegment = (marker: number, payload: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

const riffChunk = (fourcc: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
};
/** An extended WebP (VP8X) of a 64 × 64 picture followed by `extra` chunks. */
const webpWith = async (extra: Buffer[], flags = 0x04 | 0x08) => {
  const simple = await flat('webp');
  const vp8x = Buffer.alloc(10);
  vp8x[0] = flags;
  vp8x.writeUIntLE(63, 4, 3);
  vp8x.writeUIntLE(63, 7, 3);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), riffChunk('VP8X', vp8x), simple.subarray(12), ...extra]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
};

describe('metadata bombs', () => {
  it('stores a 58 KB PNG whose zTXt chunks inflate to 56 MB stripped, and 10 of them leave RSS within 100 MB', async () => {
    const u = await createAccount(t, 'user');
    const bomb = await zTxtBomb();
    expect(bomb.length).toBeLessThan(500 * 1024);
    expect((await upload(u.token, await flat('png', 32, 32))).statusCode).toBe(201); // sharp loaded and warm
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 10; i++) {
      const res = await upload(u.token, bomb);
      expect(res.statusCode, res.body).toBe(201);
    }
    const grown = process.memoryUsage().rss - before;
    expect(grown, `RSS grew by ${Math.round(grown / 1e6)} MB`).toBeLessThan(100 * 1024 * 1024);
    const [url] = [(await upload(u.token, bomb)).json().url];
    const stored = await t.app.inject(url);
    expect(stored.rawPayload.includes(Buffer.from('AAAAAAAA'))).toBe(false);
    expect((await sharp(stored.rawPayload).metadata()).width).toBe(64);
  });

  it('refuses a PNG whose colour profile (iCCP) inflates to 50 MB, before decoding', async () => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, await iccpBomb());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(IMAGES_MSG.profileTooLarge);
  });

  it('refuses a PNG with more than 64 ancillary chunks', async () => {
    const u = await createAccount(t, 'user');
    const res = await upload(
      u.token,
      await pngWith(Array.from({ length: 65 }, () => pngChunk('tEXt', Buffer.from('Key\0value', 'latin1')))),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(IMAGES_MSG.tooMuchMetadata);
  });

  it('refuses a JPEG with 1000 APP segments, and one with 3 MB of them; keeps the EXIF orientation of a normal one', async () => {
    const u = await createAccount(t, 'user');
    const many = await jpegWith(Array.from({ length: 1000 }, () => jpegSegment(0xe5, Buffer.from('x'))));
    const heavy = await jpegWith(Array.from({ length: 48 }, () => jpegSegment(0xe1, Buffer.alloc(65_000, 0x20))));
    for (const file of [many, heavy]) {
      const res = await upload(u.token, file);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(IMAGES_MSG.tooMuchMetadata);
    }

    // what the guard strips must not include the orientation
    const rotated = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c84' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const file = await jpegWith(
      [jpegSegment(0xed, Buffer.from('Photoshop 3.0\0secret-iptc-marker')), jpegSegment(0xfe, Buffer.from('secret-comment'))],
      rotated,
    );
    const res = await upload(u.token, file);
    expect(res.statusCode).toBe(201);
    const stored = await t.app.inject(res.json().url);
    const meta = await sharp(stored.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(stored.rawPayload.includes(Buffer.from('secret'))).toBe(false);
  });

  it('refuses a WebP with a 3 MB XMP chunk, and stores one with small metadata', async () => {
    const u = await createAccount(t, 'user');
    const heavy = await upload(u.token, await webpWith([riffChunk('XMP ', Buffer.alloc(3 * 1024 * 1024, 0x20))]));
    expect(heavy.statusCode).toBe(400);
    expect(heavy.json().message).toBe(IMAGES_MSG.tooMuchMetadata);
    const many = await upload(u.token, await webpWith(Array.from({ length: 65 }, () => riffChunk('XMP ', Buffer.from('<x/>')))));
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toBe(IMAGES_MSG.tooMuchMetadata);
    const small = await upload(u.token, await webpWith([riffChunk('XMP ', Buffer.from('<x:xmpmeta>secret-xmp</x:xmpmeta>'))]));
    expect(small.statusCode, small.body).toBe(201);
    expect((await t.app.inject(small.json().url)).rawPayload.includes(Buffer.from('secret-xmp'))).toBe(false);
  });
});

describe('malformed files', () => {
  const cases: Array<[string, () => Promise<Buffer>]> = [
    ['a PNG cut inside a chunk', async () => (await flat('png')).subarray(0, 40)],
    ['a PNG cut before IEND', async () => (await flat('png')).subarray(0, -12)],
    ['a PNG chunk claiming 4 GB', () => pngWith([Buffer.from([0xff, 0xff, 0xff, 0xf0, 0x74, 0x45, 0x58, 0x74])])],
    [
      'a PNG not starting with IHDR',
      async () => {
        const png = await flat('png');
        return Buffer.concat([png.subarray(0, 8), pngChunk('tEXt', Buffer.from('a\0b')), png.subarray(8)]);
      },
    ],
    [
      'a JPEG segment running past the end',
      async () => Buffer.concat([(await flat('jpeg')).subarray(0, 2), Buffer.from([0xff, 0xe1, 0xff, 0xf0, 0x45])]),
    ],
    ['a JPEG without its end marker', async () => (await flat('jpeg')).subarray(0, -2)],
    [
      'a JPEG with garbage where a marker belongs',
      () => jpegWith([jpegSegment(0xe0, Buffer.from('JFIF\0')), Buffer.from([0x12, 0x34])]),
    ],
    [
      'a WebP chunk running past the RIFF end',
      async () => {
        const w = await webpWith([riffChunk('EXIF', Buffer.alloc(100))]);
        w.writeUInt32LE(0x7ffffff0, w.length - 104);
        return w;
      },
    ],
    ['a WebP shorter than its RIFF size', async () => (await flat('webp')).subarray(0, 30)],
    [
      'a WebP with metadata but no image',
      async () => {
        const w = Buffer.concat([Buffer.from('WEBP', 'latin1'), riffChunk('EXIF', Buffer.alloc(10))]);
        const h = Buffer.alloc(8);
        h.write('RIFF');
        h.writeUInt32LE(w.length, 4);
        return Buffer.concat([h, w]);
      },
    ],
  ];
  it.each(cases)('%s is a 400 saying the file is damaged', async (_name, build) => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, await build());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, message: IMAGES_MSG.damaged });
    expect(typeof res.json().errors.file).toBe('string');
  });
});

describe('per-account limits', () => {
  it(`answers 429 after ${IMAGE_LIMITS.uploadsPerHour} uploads in an hour, saying when to come back`, async () => {
    const u = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const file = await flat('png', 16, 16);
    for (let i = 0; i < IMAGE_LIMITS.uploadsPerHour; i++) expect((await upload(u.token, file)).statusCode).toBe(201);
    const res = await upload(u.token, file);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(IMAGES_MSG.rateLimited(60));
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await upload(other.token, file)).statusCode).toBe(201);
  });

  it(`refuses an upload with 409 when ${IMAGE_LIMITS.storedImages} photos or 10 MB are stored, and not once old unused ones can go`, async () => {
    const full = await createAccount(t, 'user');
    const heavy = await createAccount(t, 'user');
    const old = await createAccount(t, 'user');
    const row = (ownerId: string, i: number) => ({
      sha256: `${i}`.padStart(64, 'f'),
      mime: 'image/webp',
      bytes: Buffer.alloc(10),
      width: 1,
      height: 1,
      ownerId,
    });
    await t.database.db.insert(images).values(Array.from({ length: IMAGE_LIMITS.storedImages }, (_, i) => row(full.id, i)));
    // built by the database: sending 10 MB through a query takes PGlite seconds
    await t.database.db
      .insert(images)
      .values({ ...row(heavy.id, 0), bytes: sql`convert_to(repeat('x', ${IMAGE_LIMITS.storedBytes}), 'UTF8')` });
    await t.database.db.insert(images).values(
      Array.from({ length: IMAGE_LIMITS.storedImages }, (_, i) => ({
        ...row(old.id, i),
        createdAt: sql`now() - interval '2 hours'`,
      })),
    );
    const file = await flat('png', 16, 16);
    for (const account of [full, heavy]) {
      const res = await upload(account.token, file);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(IMAGES_MSG.storageFull);
    }
    expect((await upload(old.token, file)).statusCode).toBe(201);
    expect(await t.database.db.$count(images, eq(images.ownerId, old.id))).toBe(1);
  });
});

describe('decode queue', () => {
  it('runs two tasks at a time, lets ten wait, and refuses the rest at once', async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 10 });
    let running = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const task = () =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        gates.push(() => {
          running--;
          resolve();
        });
      });
    const results = Array.from({ length: 15 }, () =>
      queue.run(task).then(
        () => 'done',
        (err) => (err instanceof QueueFullError ? 'full' : 'error'),
      ),
    );
    const settled = Promise.all(results);
    while (gates.length || queue.stats().running) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    const outcome = await settled;
    expect(peak).toBe(2);
    expect(outcome.filter((o) => o === 'done')).toHaveLength(12);
    expect(outcome.filter((o) => o === 'full')).toHaveLength(3);
  });

  it('a burst of 30 parallel uploads gets 429s beyond the waiting list, and a login still answers meanwhile', async () => {
    const accounts = await Promise.all([1, 2, 3].map(() => createAccount(t, 'user')));
    const files = await Promise.all([0, 1, 2].map((i) => flat('png', 6000, 6000, 100 + i)));
    let uploadsDone = 0;
    const burst = Array.from({ length: 30 }, (_, i) =>
      upload(accounts[i % 3].token, files[i % 3]).then((res) => {
        uploadsDone++;
        return res;
      }),
    );
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: accounts[0].email, password: accounts[0].password },
    });
    const doneAtLogin = uploadsDone;
    expect(login.statusCode).toBe(200);
    const answers = await Promise.all(burst);
    expect(doneAtLogin).toBeLessThan(30);
    const codes = answers.map((r) => r.statusCode);
    expect(
      codes.every((c) => c === 201 || c === 429),
      codes.join(','),
    ).toBe(true);
    const busy = answers.filter((r) => r.statusCode === 429);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0].json().message).toBe(IMAGES_MSG.busy);
    expect(busy[0].headers['retry-after']).toBe('5');
    expect(codes.filter((c) => c === 201).length).toBeGreaterThanOrEqual(
      IMAGE_LIMITS.concurrentDecodes + IMAGE_LIMITS.waitingDecodes,
    );
  });
});

describe('unreferenced images', () => {
  const age = (url: string) =>
    t.database.db
      .update(images)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(images.sha256, url.slice(12, 76)));
  const exists = async (url: string) => (await t.app.inject(url)).statusCode === 200;

  it("resolveOwnImage accepts relative and absolute addresses of the owner's images only", async () => {
    const u = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const { url } = (await upload(u.token, await uniquePng())).json();
    for (const form of [url, `http://localhost:3000${url}`, `https://cdn.example.com${url}`])
      expect(await service.resolveOwnImage(u.id, form)).toBe(url);
    for (const bad of [
      `ftp://x${url}`,
      `${url}?x=1`,
      `https://a.example/b${url}`,
      url.replace('.webp', '.png'),
      '',
      'javascript:alert(1)',
    ]) {
      expect(await service.resolveOwnImage(u.id, bad), bad).toBeNull();
    }
    expect(await service.resolveOwnImage(other.id, url)).toBeNull();
    expect(await service.isOwnImage(u.id, url)).toBe(true);
  });

  it('after a new photo, the old one is pruned once it is an hour old; the current one stays', async () => {
    const u = await createAccount(t, 'user');
    const first = (await upload(u.token, await uniquePng())).json().url;
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/user/edit/photo',
          headers: { authorization: u.token },
          payload: { picture: first },
        })
      ).statusCode,
    ).toBe(200);
    const second = (await upload(u.token, await uniquePng())).json().url;
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/user/edit/photo',
          headers: { authorization: u.token },
          payload: { picture: second },
        })
      ).statusCode,
    ).toBe(200);
    const fresh = (await upload(u.token, await uniquePng())).json().url;

    expect(await service.pruneUnreferenced(u.id)).toBe(0); // all under an hour old
    await Promise.all([age(first), age(second)]);
    expect(await service.pruneUnreferenced(u.id)).toBe(1);
    expect(await exists(first)).toBe(false);
    expect(await exists(second)).toBe(true);
    expect(await exists(fresh)).toBe(true);
  });

  it("the sweep removes every owner's old unused images, keeping pictures, even another account's", async () => {
    const a = await createAccount(t, 'user');
    const b = await createAccount(t, 'trainer');
    const unused = (await upload(a.token, await uniquePng())).json().url;
    const photo = await uniquePng();
    const picture = (await upload(b.token, photo)).json().url;
    // the same bytes uploaded by a: a's row is kept because b's picture names that address
    const shared = (await upload(a.token, photo)).json().url;
    expect(shared).toBe(picture);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/trainer/edit/photo',
          headers: { authorization: b.token },
          payload: { picture },
        })
      ).statusCode,
    ).toBe(200);
    await Promise.all([age(unused), age(picture)]);
    expect(await service.sweepUnreferenced()).toBeGreaterThanOrEqual(1);
    expect(await exists(unused)).toBe(false);
    expect(await t.database.db.$count(images, eq(images.sha256, picture.slice(12, 76)))).toBe(2);
  });
});

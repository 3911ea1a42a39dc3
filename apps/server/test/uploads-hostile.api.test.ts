import { crc32, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, SETTINGS_MSG } from '@spotter/shared';
import { images } from '../src/db/schema';
import { IMAGES_MSG } from '../src/modules/images/images.messages';
import { createAccount, useTestApp } from './helper';

/**
 * Uploads an attacker would send to POST /api/images: files whose name and declared type lie
 * about their content, polyglots (an image that is also HTML, JavaScript or a ZIP), decompression
 * bombs and oversized files. What images.api.test.ts covers (metadata bombs, malformed block
 * lengths, per-account limits, the decode queue) is not repeated here.
 */

const t = await useTestApp();

/** One multipart part named "file", with the name and type the client claims. */
function upload(token: string, file: Buffer, { filename = 'photo.png', type = 'image/png' } = {}) {
  const boundary = `----hostile${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

const storedCount = async (ownerId: string) => t.database.db.$count(images, eq(images.ownerId, ownerId));

/** A small picture no earlier run stored (the PostgreSQL test database is shared and kept). */
const picture = (format: 'png' | 'jpeg' | 'webp' | 'gif', width = 48, height = 48) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: Math.floor(Math.random() * 256), g: Math.floor(Math.random() * 256), b: 90 },
    },
  })
    .toFormat(format)
    .toBuffer();

const PAYLOAD = 'window.__spotterXss=1';
const HTML = Buffer.from(`<!doctype html><html><body><script>${PAYLOAD}</script><img src=x onerror="${PAYLOAD}"></body></html>`);
const SVG = Buffer.from(
  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="${PAYLOAD}"><script>${PAYLOAD}</script><rect width="10" height="10"/></svg>`,
);
const PDF = Buffer.from(
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction<</S/JavaScript/JS(${PAYLOAD})>>>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
);

/** A one-file ZIP archive (stored, not deflated) holding `name` with `content`. */
function zip(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const crc = crc32(content) >>> 0;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}
const ZIP = zip('payload.html', HTML);

const pngChunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
};

/**
 * A PNG whose header says `width` × `height` but whose only pixel data is one deflated row: a
 * few hundred bytes claiming billions of pixels.
 */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + width * 3))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small real JPEG whose frame header (SOF0) is rewritten to claim `width` × `height`. */
async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await picture('jpeg', 8, 8));
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  expect(sof).toBeGreaterThan(0);
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

/** A small lossless WebP whose VP8L header is rewritten to claim `width` × `height` (at most 16384 each). */
async function webpDeclaring(width: number, height: number): Promise<Buffer> {
  const webp = Buffer.from(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#246' } })
      .webp({ lossless: true })
      .toBuffer(),
  );
  expect(webp.toString('latin1', 12, 16)).toBe('VP8L');
  // after the 0x2f signature: 14 bits width - 1, 14 bits height - 1, then alpha and version bits
  const bits = webp.readUInt32LE(21);
  webp.writeUInt32LE(((bits & ~0x0fffffff) | (width - 1) | ((height - 1) << 14)) >>> 0, 21);
  return webp;
}

/** The stored photo behind an upload's answer: its bytes and the headers it is served with. */
async function served(url: string) {
  const res = await t.app.inject(url);
  expect(res.statusCode).toBe(200);
  return res;
}

/** What every stored upload must be: a WebP re-encoded by the server, typed as one, never sniffed. */
async function expectSafelyStored(res: Awaited<ReturnType<typeof upload>>, ...payloads: Buffer[]) {
  expect(res.statusCode, res.body).toBe(201);
  const image = await served(res.json().url);
  expect(image.headers['content-type']).toBe('image/webp');
  expect(image.headers['x-content-type-options']).toBe('nosniff');
  expect(String(image.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(image.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(image.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
  for (const payload of [...payloads, Buffer.from(PAYLOAD), Buffer.from('<script'), Buffer.from('PK\x03\x04', 'latin1')]) {
    expect(image.rawPayload.includes(payload), `stored bytes contain ${JSON.stringify(payload.toString('latin1'))}`).toBe(false);
  }
  expect((await sharp(image.rawPayload).metadata()).format).toBe('webp');
}

describe('the content decides the type, not the name or the declared type', () => {
  const refused: Array<[string, () => Promise<Buffer> | Buffer]> = [
    ['a GIF', () => picture('gif')],
    ['an SVG with a script and an onload handler', () => SVG],
    ['an HTML page with a script', () => HTML],
    ['a PDF with JavaScript', () => PDF],
    ['a ZIP archive', () => ZIP],
    ['a GIF that is also JavaScript (GIF89a/*…*/=…)', gifJavaScriptPolyglot],
    ['an SVG behind a byte-order mark and spaces', () => Buffer.concat([Buffer.from('\ufeff  \n'), SVG])],
  ];
  it.each(refused)('%s named photo.png and sent as image/png is a 415, and nothing is stored', async (_name, build) => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, await build());
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: SETTINGS_MSG.imageType });
    expect(await storedCount(u.id)).toBe(0);
  });

  it('an SVG sent honestly as image/svg+xml is refused the same way', async () => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, SVG, { filename: 'avatar.svg', type: 'image/svg+xml' });
    expect(res.statusCode).toBe(415);
    expect(await storedCount(u.id)).toBe(0);
  });

  it('HTML behind a PNG signature is a 400 saying the file is damaged', async () => {
    const u = await createAccount(t, 'user');
    const res = await upload(u.token, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), HTML]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_IMAGE', message: IMAGES_MSG.damaged });
    expect(await storedCount(u.id)).toBe(0);
  });

  it('a real JPEG named photo.png, or sent as text/html, is stored as a re-encoded WebP', async () => {
    const u = await createAccount(t, 'user');
    await expectSafelyStored(await upload(u.token, await picture('jpeg')));
    await expectSafelyStored(await upload(u.token, await picture('webp'), { filename: 'x.html', type: 'text/html' }));
  });
});

/** GIF89a, then a width of "/*" opening a JavaScript comment that the trailer closes. */
async function gifJavaScriptPolyglot(): Promise<Buffer> {
  const gif = Buffer.from(await picture('gif', 4, 4));
  gif.write('/*', 6, 'latin1');
  return Buffer.concat([gif, Buffer.from(`*/=1;${PAYLOAD};//`)]);
}

describe('polyglots: a valid image carrying a payload is stored re-encoded, without it', () => {
  it('a PNG with an HTML page appended after IEND', async () => {
    const u = await createAccount(t, 'user');
    await expectSafelyStored(await upload(u.token, Buffer.concat([await picture('png'), HTML])));
  });

  it('a PNG with a script in tEXt and iTXt chunks', async () => {
    const u = await createAccount(t, 'user');
    const png = await picture('png');
    const file = Buffer.concat([
      png.subarray(0, 33),
      pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), HTML])),
      pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), SVG])),
      png.subarray(33),
    ]);
    await expectSafelyStored(await upload(u.token, file));
  });

  it('a JPEG with a ZIP archive appended (a "JAR/ZIP polyglot")', async () => {
    const u = await createAccount(t, 'user');
    await expectSafelyStored(await upload(u.token, Buffer.concat([await picture('jpeg'), ZIP])), Buffer.from('payload.html'));
  });

  it('a JPEG with HTML in a comment segment and in an APP1 segment', async () => {
    const u = await createAccount(t, 'user');
    const jpeg = await picture('jpeg');
    const segment = (marker: number, body: Buffer) => {
      const head = Buffer.from([0xff, marker, 0, 0]);
      head.writeUInt16BE(body.length + 2, 2);
      return Buffer.concat([head, body]);
    };
    const file = Buffer.concat([
      jpeg.subarray(0, 2),
      segment(0xfe, HTML),
      segment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0'), SVG])),
      jpeg.subarray(2),
    ]);
    await expectSafelyStored(await upload(u.token, file));
  });

  it('a WebP with an HTML chunk inside the RIFF and a script after it', async () => {
    const u = await createAccount(t, 'user');
    const webp = await picture('webp');
    const chunk = Buffer.alloc(8);
    chunk.write('HTML', 0, 'latin1');
    chunk.writeUInt32LE(HTML.length, 4);
    const body = Buffer.concat([webp.subarray(8), chunk, HTML, Buffer.alloc(HTML.length % 2)]);
    const head = Buffer.alloc(8);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    await expectSafelyStored(await upload(u.token, Buffer.concat([head, body, Buffer.from(`<script>${PAYLOAD}</script>`)])));
  });
});

describe('decompression bombs and oversized files', () => {
  it('refuses PNG and JPEG headers declaring 50000 × 50000 pixels, a WebP declaring 10000 × 10000, and flat 49- and 81-megapixel images, before decoding; RSS stays within 150 MB', async () => {
    const u = await createAccount(t, 'user');
    const flatHuge = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    // 49 megapixels in a few dozen bytes: lossless WebP codes a flat picture almost for free
    const flatWebp = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#000' } })
      .webp({ lossless: true, effort: 0 })
      .toBuffer();
    expect(flatWebp.length).toBeLessThan(1024);
    const bombs = [
      pngDeclaring(50_000, 50_000),
      await jpegDeclaring(50_000, 50_000),
      await webpDeclaring(10_000, 10_000),
      flatHuge,
      flatWebp,
    ];
    expect(Math.max(...bombs.map((b) => b.length))).toBeLessThan(400 * 1024);
    // sharp loaded and warm before measuring
    expect((await upload(u.token, await picture('png'))).statusCode).toBe(201);
    const before = process.memoryUsage().rss;
    for (let round = 0; round < 3; round++) {
      for (const bomb of bombs) {
        const res = await upload(u.token, bomb);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_IMAGE', message: SETTINGS_MSG.imageTooManyPixels });
      }
    }
    const grown = process.memoryUsage().rss - before;
    expect(grown, `RSS grew by ${Math.round(grown / 1e6)} MB`).toBeLessThan(150 * 1024 * 1024);
    expect(await storedCount(u.id)).toBe(1);
  });

  it('stores a flat image just under 40 megapixels at 512 px, and RSS stays within 150 MB', async () => {
    const u = await createAccount(t, 'user');
    const large = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: '#135' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect((await upload(u.token, await picture('png'))).statusCode).toBe(201);
    const before = process.memoryUsage().rss;
    const res = await upload(u.token, large);
    const grown = process.memoryUsage().rss - before;
    expect(grown, `RSS grew by ${Math.round(grown / 1e6)} MB`).toBeLessThan(150 * 1024 * 1024);
    await expectSafelyStored(res);
    const meta = await sharp((await served(res.json().url)).rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
  });

  it('refuses a file over 5 MB with 413, whatever it claims to be, and stores nothing', async () => {
    const u = await createAccount(t, 'user');
    const png = await picture('png');
    // a valid PNG start padded past the limit, and plain bytes one over it
    const padded = Buffer.concat([png, Buffer.alloc(IMAGE_MAX_BYTES + 1 - png.length + 1024, 0x41)]);
    const before = process.memoryUsage().rss;
    for (const file of [padded, Buffer.alloc(IMAGE_MAX_BYTES + 1, 0x42)]) {
      const res = await upload(u.token, file);
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: SETTINGS_MSG.imageTooLarge });
    }
    const grown = process.memoryUsage().rss - before;
    expect(grown, `RSS grew by ${Math.round(grown / 1e6)} MB`).toBeLessThan(150 * 1024 * 1024);
    expect(await storedCount(u.id)).toBe(0);
  });

  it('refuses a file under another field and a body that is not multipart; of two files in one request stores only the first', async () => {
    const u = await createAccount(t, 'user');
    const png = await picture('png');
    const boundary = '----hostiletwo';
    const part = (name: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from('\r\n'),
      ]);
    const send = (parts: Buffer[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/images',
        payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
        headers: { authorization: u.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const other = await send([part('picture')]);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(SETTINGS_MSG.imageMissing);
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      payload: png,
      headers: { authorization: u.token, 'content-type': 'image/png' },
    });
    expect(raw.statusCode).toBe(415);
    // the first file is read and stored; a second one in the same request never is
    const two = await send([part('file'), part('file')]);
    expect(two.statusCode, two.body).toBe(201);
    expect(await storedCount(u.id)).toBe(1);
  });
});

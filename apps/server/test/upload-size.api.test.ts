import sharp from 'sharp';
import { expect, it } from 'vitest';
import { createAccount, useTestApp } from './helper';

const t = await useTestApp();

it('accepts a real photo of several megabytes (the 100 KB JSON limit does not apply to uploads)', async () => {
  const noise = Buffer.alloc(1200 * 900 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const png = await sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(png.length).toBeGreaterThan(2 * 1024 * 1024);
  expect(png.length).toBeLessThan(5 * 1024 * 1024);
  const u = await createAccount(t, 'user');
  const boundary = '----spotterbig';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload,
    headers: { authorization: u.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode).toBe(201);
  const img = await t.app.inject(res.json().url);
  const meta = await sharp(img.rawPayload).metadata();
  expect([meta.width, meta.height]).toEqual([512, 384]);
});

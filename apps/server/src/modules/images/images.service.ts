import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp, { type Metadata } from 'sharp';
import { IMAGE_MAX_EDGE, SETTINGS_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { images } from '../../db/schema';
import { AppError, badRequest } from '../../lib/app-error';

const MAX_PIXELS = 40_000_000;
const ACCEPTED = new Set(['png', 'jpeg', 'webp']);
export const IMAGE_URL = /^\/api\/images\/([0-9a-f]{64})\.webp$/;
export const imageUrl = (sha256: string) => `/api/images/${sha256}.webp`;

/**
 * Checks an upload by its content (not its name), refuses what would explode in memory before
 * decoding it, and re-encodes it: EXIF and other metadata dropped, at most 512 px, WebP.
 */
export async function reencodeImage(input: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  let meta: Metadata;
  try {
    // header only: the pixel check below runs before anything is decoded
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(415, SETTINGS_MSG.imageType);
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) throw new AppError(415, SETTINGS_MSG.imageType);
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_PIXELS) throw badRequest(SETTINGS_MSG.imageTooManyPixels);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: IMAGE_MAX_EDGE, height: IMAGE_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw badRequest(`${SETTINGS_MSG.imageType}: this file could not be read as an image`);
  }
}

export function createImagesService({ db }: { db: Db }) {
  return {
    async store(ownerId: string, input: Buffer): Promise<string> {
      const { data, width, height } = await reencodeImage(input);
      const sha256 = createHash('sha256').update(data).digest('hex');
      await db.insert(images).values({ sha256, mime: 'image/webp', bytes: data, width, height, ownerId }).onConflictDoNothing();
      return imageUrl(sha256);
    },
    async find(sha256: string) {
      const [row] = await db.select({ bytes: images.bytes, mime: images.mime }).from(images).where(eq(images.sha256, sha256)).limit(1);
      return row;
    },
    /** True when `url` is one of this account's stored images. */
    async isOwnImage(ownerId: string, url: string): Promise<boolean> {
      const m = IMAGE_URL.exec(url);
      if (!m) return false;
      const [row] = await db.select({ sha256: images.sha256 }).from(images).where(and(eq(images.sha256, m[1]), eq(images.ownerId, ownerId))).limit(1);
      return !!row;
    },
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;

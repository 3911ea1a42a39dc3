import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import { IMAGE_MAX_EDGE, SETTINGS_MSG } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { guardImage, ImageGuardError, type ImageFormat } from './image-guard';
import { createWorkQueue, QueueFullError } from '../../lib/work-queue';
import { IMAGE_LIMITS, IMAGES_MSG } from './images.messages';
import * as repo from './images.repo';

type Sharp = (typeof import('sharp'))['default'];
let loading: Promise<Sharp> | undefined;

/**
 * libvips, loaded with the first picture rather than at start: loading it costs about 19 MiB of
 * memory that a server which processes no picture never needs (docs/decisions/032-server-memory.md).
 */
function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(
    ({ default: sharp }) => {
      // libvips' operation cache only helps when the same image is processed twice, which never
      // happens here, and it keeps decoded images (with their metadata) alive: five decodes of a
      // metadata bomb left RSS 1.6 GB higher with it, 0.75 GB without. One libvips thread per
      // decode, two decodes at a time (the queue below), leaves the event loop and logins a core.
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

const MAX_PIXELS = 40_000_000;
const IMAGE_URL = /^\/api\/images\/([0-9a-f]{64})\.webp$/;
const imageUrl = (sha256: string) => `/api/images/${sha256}.webp`;
/** A stored image's address, relative or absolute on any host (clients may echo PUBLIC_URL-based ones back). */
const ANY_IMAGE_URL = /^(?:https?:\/\/[^/?#\s]+)?\/api\/images\/([0-9a-f]{64})\.webp$/;

/** A 429 that also says when to come back (the route sends it as Retry-After). */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

function guard(input: Buffer): { format: ImageFormat; data: Buffer } {
  try {
    return guardImage(input);
  } catch (err) {
    if (!(err instanceof ImageGuardError)) throw err;
    if (err.reason === 'type') throw new AppError('UNSUPPORTED_MEDIA_TYPE', SETTINGS_MSG.imageType);
    const message =
      err.reason === 'damaged'
        ? IMAGES_MSG.damaged
        : err.reason === 'icc'
          ? IMAGES_MSG.profileTooLarge
          : IMAGES_MSG.tooMuchMetadata;
    throw new AppError('INVALID_IMAGE', message, { file: err.message });
  }
}

/** Decodes bytes the guard already checked and stripped: at most `maxEdge` px (512 for photos), WebP, no metadata. */
async function decode(
  format: ImageFormat,
  input: Buffer,
  maxEdge: number = IMAGE_MAX_EDGE,
): Promise<{ data: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // header only: the pixel check below runs before anything is decoded
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SETTINGS_MSG.imageType);
  }
  if (meta.format !== format) throw new AppError('UNSUPPORTED_MEDIA_TYPE', SETTINGS_MSG.imageType);
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_PIXELS)
    throw new AppError('INVALID_IMAGE', SETTINGS_MSG.imageTooManyPixels);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw new AppError('INVALID_IMAGE', `${SETTINGS_MSG.imageType}: this file could not be read as an image`);
  }
}

type ImagesOptions = Partial<Pick<typeof IMAGE_LIMITS, 'concurrentDecodes' | 'waitingDecodes'>>;

export function createImagesService({ db, options = {} }: { db: Db; options?: ImagesOptions }) {
  const limits = { ...IMAGE_LIMITS, ...options };
  const queue = createWorkQueue({ concurrency: limits.concurrentDecodes, maxWaiting: limits.waitingDecodes });
  const isFull = (u: { count: number; bytes: number }, extraBytes: number) =>
    u.count >= limits.storedImages || u.bytes + extraBytes > limits.storedBytes;
  const pruneUnreferenced = (ownerId: string) =>
    repo.deleteUnreferenced(db, { ownerId, minAgeSeconds: limits.unreferencedGraceSeconds });

  return {
    /**
     * Stores an upload for `ownerId` and answers its address. The upload rate is the route's limit
     * (images.routes.ts). Order: storage room, structure and metadata bounds (cheap, no decoding),
     * then a decode slot (at most `concurrentDecodes` at once, `waitingDecodes` waiting, then 429).
     */
    async store(ownerId: string, input: Buffer): Promise<string> {
      if (isFull(await repo.findUsage(db, ownerId), 1)) {
        await pruneUnreferenced(ownerId);
        if (isFull(await repo.findUsage(db, ownerId), 1)) throw new AppError('STORAGE_FULL', IMAGES_MSG.storageFull);
      }
      const { format, data: checked } = guard(input);
      let encoded: { data: Buffer; width: number; height: number };
      try {
        encoded = await queue.run(() => decode(format, checked));
      } catch (err) {
        if (err instanceof QueueFullError) throw new RetryLaterError(IMAGES_MSG.busy, 5);
        throw err;
      }
      const { data, width, height } = encoded;
      const sha256 = createHash('sha256').update(data).digest('hex');
      await db.transaction(async (tx) => {
        await repo.lockOwner(tx, ownerId);
        if (await repo.hasOwnImage(tx, ownerId, sha256)) return;
        if (isFull(await repo.findUsage(tx, ownerId), data.length)) throw new AppError('STORAGE_FULL', IMAGES_MSG.storageFull);
        await repo.insertImage(tx, { sha256, mime: 'image/webp', bytes: data, width, height, ownerId });
      });
      return imageUrl(sha256);
    },
    find: (sha256: string) => repo.findImage(db, sha256),
    /**
     * The same checks and re-encoding as `store` (guard, pixel limit, a decode slot) without storing:
     * WebP without metadata, at most `maxEdge` px. For documents such as trainers' certificates
     * (docs/product.md#verified-coaches), which need more pixels than a profile photo to be read.
     */
    async reencode(input: Buffer, { maxEdge }: { maxEdge: number }): Promise<{ data: Buffer; width: number; height: number }> {
      const { format, data: checked } = guard(input);
      try {
        return await queue.run(() => decode(format, checked, maxEdge));
      } catch (err) {
        if (err instanceof QueueFullError) throw new RetryLaterError(IMAGES_MSG.busy, 5);
        throw err;
      }
    },
    /**
     * The relative address `/api/images/<sha256>.webp` when `url` (relative, or absolute on any
     * http(s) host) names one of this owner's stored images; otherwise null.
     */
    async resolveOwnImage(ownerId: string, url: string): Promise<string | null> {
      const m = ANY_IMAGE_URL.exec(url);
      if (!m) return null;
      return (await repo.hasOwnImage(db, ownerId, m[1])) ? imageUrl(m[1]) : null;
    },
    /** True when `url` is one of this account's stored images. */
    async isOwnImage(ownerId: string, url: string): Promise<boolean> {
      const m = IMAGE_URL.exec(url);
      return !!m && (await repo.hasOwnImage(db, ownerId, m[1]));
    },
    /**
     * Deletes this owner's images that no account's picture names and that were uploaded more
     * than an hour ago (an upload comes before the photo is chosen); answers how many went.
     */
    pruneUnreferenced,
    /** The same over every owner, for a timer in main.ts. */
    sweepUnreferenced: () => repo.deleteUnreferenced(db, { minAgeSeconds: limits.unreferencedGraceSeconds }),
    /** Deletes every image of the owner, in the caller's transaction (account deletion). */
    removeAllOf: (ownerId: string, tx: Tx) => repo.deleteImagesOf(tx, ownerId),
    /** Decodes running and waiting now. */
    queueStats: () => queue.stats(),
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;

import { METADATA_MAX_BLOCKS, METADATA_MAX_BYTES, ICC_MAX_BYTES } from './image-guard';

/** Per-account and per-process limits on photo uploads; the messages below state them. */
export const IMAGE_LIMITS = {
  uploadsPerHour: 20,
  storedImages: 20,
  storedBytes: 10 * 1024 * 1024,
  /** decodes at once per process, and uploads allowed to wait for one */
  concurrentDecodes: 2,
  waitingDecodes: 10,
  /** an upload not made the account's picture within this time may be deleted */
  unreferencedGraceSeconds: 60 * 60,
} as const;

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const IMAGES_MSG = {
  damaged: 'The image file is damaged or incomplete; export it again and upload the new file',
  tooMuchMetadata: `The image carries too much metadata (at most ${METADATA_MAX_BLOCKS} metadata blocks and ${mb(METADATA_MAX_BYTES)} in total); save a copy without metadata (for example "Export" or "Save for web") and upload that`,
  profileTooLarge: `The image's colour profile is larger than ${mb(ICC_MAX_BYTES)}; save it with a standard sRGB profile and upload it again`,
  busy: 'Too many photos are being processed right now; try again in a few seconds',
  rateLimited: (minutes: number) =>
    `You can upload at most ${IMAGE_LIMITS.uploadsPerHour} photos an hour; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
  storageFull: `You have reached the limit of ${IMAGE_LIMITS.storedImages} stored photos (${mb(IMAGE_LIMITS.storedBytes)} in total). Photos that are not your profile photo are deleted an hour after upload; try again then`,
} as const;

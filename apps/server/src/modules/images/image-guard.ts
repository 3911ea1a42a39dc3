import { inflateSync } from 'node:zlib';

/**
 * Walks the block list of a PNG, JPEG or WebP file before any decoder sees it: checks that every
 * length stays inside the file, bounds the number and size of metadata blocks, and answers a copy
 * holding only what drawing the pixels needs (EXIF for orientation, ICC for colour, transparency).
 *
 * Why: libpng inflates every zTXt/iTXt chunk (up to 8 MB each) into memory that glibc does not
 * hand back; a 58 KB PNG with eight such chunks took the process from 0.1 to 1.6 GB in five
 * decodes. Stripping text chunks keeps it at a few megabytes.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export const METADATA_MAX_BLOCKS = 64;
export const METADATA_MAX_BYTES = 2 * 1024 * 1024;
export const ICC_MAX_BYTES = 1024 * 1024;
/** EXIF is kept for its orientation tag; a JPEG segment cannot hold more than this anyway. */
const EXIF_MAX_BYTES = 64 * 1024;

type GuardFailure = 'type' | 'damaged' | 'metadata' | 'icc';

export class ImageGuardError extends Error {
  constructor(
    public readonly reason: GuardFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'ImageGuardError';
  }
}

const damaged = (detail: string) => new ImageGuardError('damaged', detail);

/** Counts metadata as the walk goes and fails as soon as a bound is passed. */
class MetadataBudget {
  blocks = 0;
  bytes = 0;
  add(bytes: number) {
    this.blocks++;
    this.bytes += bytes;
    if (this.blocks > METADATA_MAX_BLOCKS)
      throw new ImageGuardError('metadata', `more than ${METADATA_MAX_BLOCKS} metadata blocks`);
    if (this.bytes > METADATA_MAX_BYTES)
      throw new ImageGuardError('metadata', `more than ${METADATA_MAX_BYTES} bytes of metadata`);
  }
}

function detectFormat(input: Buffer): ImageFormat | undefined {
  if (input.length >= 8 && input.readUInt32BE(0) === 0x89504e47 && input.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return 'jpeg';
  if (input.length >= 12 && input.toString('latin1', 0, 4) === 'RIFF' && input.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return undefined;
}

/** Answers the format and the stripped bytes to decode, or throws ImageGuardError. */
export function guardImage(input: Buffer): { format: ImageFormat; data: Buffer } {
  const format = detectFormat(input);
  if (!format) throw new ImageGuardError('type', 'not a PNG, JPEG or WebP file');
  const data = format === 'png' ? stripPng(input) : format === 'jpeg' ? stripJpeg(input) : stripWebp(input);
  return { format, data };
}

// PNG: 8-byte signature, then chunks of length (4, big-endian), type (4), data, CRC (4).
const PNG_KEEP = new Set(['tRNS', 'gAMA', 'cHRM', 'sRGB', 'sBIT', 'iCCP', 'eXIf']);
// animation chunks are frames, not metadata: dropped (the still image is IDAT) but not counted
const PNG_ANIMATION = new Set(['acTL', 'fcTL', 'fdAT']);

function stripPng(input: Buffer): Buffer {
  const budget = new MetadataBudget();
  const kept: Buffer[] = [input.subarray(0, 8)];
  const seen = new Set<string>();
  let pos = 8;
  let hasIdat = false;
  for (;;) {
    if (pos + 12 > input.length) throw damaged('the PNG ends before its IEND chunk');
    const length = input.readUInt32BE(pos);
    const type = input.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw damaged(`invalid PNG chunk type at byte ${pos}`);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > input.length) throw damaged(`the PNG chunk ${type} runs past the end of the file`);
    const chunk = input.subarray(pos, end);
    if (pos === 8 && (type !== 'IHDR' || length !== 13)) throw damaged('a PNG must start with a 13-byte IHDR chunk');
    pos = end;

    const critical = type.charCodeAt(0) < 0x61;
    if (critical) {
      if (type === 'IDAT') hasIdat = true;
      kept.push(chunk);
      if (type === 'IEND') break;
      continue;
    }
    if (PNG_ANIMATION.has(type)) continue;
    budget.add(length);
    if (!PNG_KEEP.has(type) || seen.has(type)) continue;
    if (type === 'iCCP' && !pngProfileFits(chunk.subarray(8, 8 + length))) continue;
    if (type === 'eXIf' && length > EXIF_MAX_BYTES) continue;
    seen.add(type);
    kept.push(chunk);
  }
  if (!hasIdat) throw damaged('the PNG has no image data (IDAT)');
  return Buffer.concat(kept);
}

/** iCCP: name, NUL, method byte, zlib stream. Inflates at most ICC_MAX_BYTES + 1 bytes to measure. */
function pngProfileFits(data: Buffer): boolean {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79 || nul + 2 > data.length) return false;
  try {
    inflateSync(data.subarray(nul + 2), { maxOutputLength: ICC_MAX_BYTES });
    return true;
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ImageGuardError('icc', `the colour profile inflates to more than ${ICC_MAX_BYTES} bytes`);
    }
    return false; // a corrupt profile is dropped; the decoder would ignore it too
  }
}

// JPEG: markers 0xFF xx; most carry a 2-byte big-endian length that counts itself.
const SOS = 0xda;
const EOI = 0xd9;
const hasLength = (m: number) => !(m === 0x01 || (m >= 0xd0 && m <= 0xd9));
const isMetadata = (m: number) => (m >= 0xe0 && m <= 0xef) || m === 0xfe;

function stripJpeg(input: Buffer): Buffer {
  const budget = new MetadataBudget();
  const kept: Buffer[] = [input.subarray(0, 2)];
  let pos = 2;
  let keptJfif = false;
  let keptExif = false;
  let keptAdobe = false;
  let iccBytes = 0;
  let sawScan = false;
  for (;;) {
    if (pos + 2 > input.length) throw damaged('the JPEG ends before its end-of-image marker');
    if (input[pos] !== 0xff) throw damaged(`expected a JPEG marker at byte ${pos}`);
    let m = input[pos + 1];
    let start = pos;
    while (m === 0xff) {
      // fill bytes before a marker
      pos++;
      if (pos + 2 > input.length) throw damaged('the JPEG ends before its end-of-image marker');
      m = input[pos + 1];
      start = pos;
    }
    if (m === EOI) {
      if (!sawScan) throw damaged('the JPEG has no image data');
      kept.push(input.subarray(start, pos + 2));
      break; // anything after EOI (thumbnails, trailers) is dropped
    }
    if (!hasLength(m)) {
      kept.push(input.subarray(start, pos + 2));
      pos += 2;
      continue;
    }
    if (pos + 4 > input.length) throw damaged('a JPEG segment runs past the end of the file');
    const length = input.readUInt16BE(pos + 2);
    const end = pos + 2 + length;
    if (length < 2 || end > input.length) throw damaged('a JPEG segment runs past the end of the file');
    const body = input.subarray(pos + 4, end);
    const segment = input.subarray(start, end);
    pos = end;

    if (isMetadata(m)) {
      budget.add(length);
      if (m === 0xe0 && !keptJfif && body.toString('latin1', 0, 5) === 'JFIF\0') {
        keptJfif = true;
        kept.push(segment);
      } else if (m === 0xe1 && !keptExif && body.toString('latin1', 0, 6) === 'Exif\0\0') {
        keptExif = true;
        kept.push(segment);
      } else if (m === 0xe2 && body.toString('latin1', 0, 12) === 'ICC_PROFILE\0') {
        iccBytes += body.length - 14;
        if (iccBytes > ICC_MAX_BYTES)
          throw new ImageGuardError('icc', `the colour profile is larger than ${ICC_MAX_BYTES} bytes`);
        kept.push(segment);
      } else if (m === 0xee && !keptAdobe && body.toString('latin1', 0, 5) === 'Adobe') {
        // tells the decoder whether 4-channel data is CMYK or YCCK
        keptAdobe = true;
        kept.push(segment);
      }
      continue;
    }
    kept.push(segment);
    if (m === SOS) {
      sawScan = true;
      // entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart
      let i = input.indexOf(0xff, pos);
      while (
        i !== -1 &&
        i + 1 < input.length &&
        (input[i + 1] === 0 || input[i + 1] === 0xff || (input[i + 1] >= 0xd0 && input[i + 1] <= 0xd7))
      ) {
        i = input.indexOf(0xff, i + 1);
      }
      if (i === -1 || i + 1 >= input.length) throw damaged('the JPEG ends before its end-of-image marker');
      kept.push(input.subarray(pos, i));
      pos = i;
    }
  }
  return Buffer.concat(kept);
}

// WebP: "RIFF", size (4, little-endian), "WEBP", then chunks of FourCC, size (4, LE), data, pad.
const WEBP_IMAGE = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);
const VP8X_ICC = 0x20;
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(input: Buffer): Buffer {
  const budget = new MetadataBudget();
  const riffEnd = 8 + input.readUInt32LE(4);
  if (riffEnd > input.length) throw damaged('the WebP file is shorter than its RIFF header says');
  const kept: Buffer[] = [];
  let vp8x: Buffer | undefined;
  let hasImage = false;
  let keptExif = false;
  let keptIcc = false;
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) throw damaged(`a WebP chunk header runs past the end of the file`);
    const fourcc = input.toString('latin1', pos, pos + 4);
    const size = input.readUInt32LE(pos + 4);
    const end = pos + 8 + size;
    if (end > riffEnd) throw damaged(`the WebP chunk "${fourcc.trim()}" runs past the end of the file`);
    const padded = Math.min(end + (size & 1), riffEnd);
    let chunk = input.subarray(pos, padded);
    pos = padded;
    if (WEBP_IMAGE.has(fourcc)) {
      if (fourcc === 'VP8X') {
        if (vp8x || size < 10) throw damaged('invalid WebP VP8X chunk');
        chunk = Buffer.from(chunk); // its flags are rewritten below
        vp8x = chunk;
      } else hasImage = true;
      kept.push(chunk);
      continue;
    }
    budget.add(size);
    if (fourcc === 'ICCP' && !keptIcc) {
      if (size > ICC_MAX_BYTES) throw new ImageGuardError('icc', `the colour profile is larger than ${ICC_MAX_BYTES} bytes`);
      keptIcc = true;
      kept.push(chunk);
    } else if (fourcc === 'EXIF' && !keptExif && size <= EXIF_MAX_BYTES) {
      keptExif = true;
      kept.push(chunk);
    }
  }
  if (!hasImage) throw damaged('the WebP file has no image data');
  if (vp8x) vp8x[8] = (vp8x[8] & ~(VP8X_ICC | VP8X_EXIF | VP8X_XMP)) | (keptIcc ? VP8X_ICC : 0) | (keptExif ? VP8X_EXIF : 0);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...kept]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

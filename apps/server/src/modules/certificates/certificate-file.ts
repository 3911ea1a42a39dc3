import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

/**
 * Certificates' files (docs/product.md#verified-coaches): kept in the data directory's private
 * `certificates` folder (0700, files 0600), each named by a random key and never by the client's
 * file name; read back only through the trainer's and the operators' routes.
 */
export function createCertificateFiles(dataDir: string) {
  const dir = join(dataDir, 'certificates');
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{48}$/.test(key)) throw new Error('not a certificate file key');
    return join(dir, key);
  };
  return {
    async write(data: Buffer): Promise<string> {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const key = randomBytes(24).toString('hex');
      await writeFile(pathOf(key), data, { mode: 0o600, flag: 'wx' });
      return key;
    },
    /** A stream of the file, or undefined when it is not there. */
    read(key: string) {
      const path = pathOf(key);
      return existsSync(path) ? createReadStream(path) : undefined;
    },
    async remove(key: string): Promise<void> {
      await unlink(pathOf(key)).catch(() => undefined);
    },
  };
}
export type CertificateFiles = ReturnType<typeof createCertificateFiles>;

export const isPdf = (data: Buffer) => data.length >= 5 && data.toString('latin1', 0, 5) === '%PDF-';

/** Names that make a PDF act (scripts, launching programs, files inside it, actions on opening). */
const ACTIVE = /\/(JavaScript|JS|Launch|EmbeddedFile|OpenAction)/;
/** What inflating the PDF's compressed streams (object streams hide names too) may cost in all. */
const INFLATE_BUDGET = 32 * 1024 * 1024;

/** PDF names may spell letters as #xx: `/J#61vaScript` is `/JavaScript`. */
const unescapeNames = (text: string) =>
  text.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Whether a PDF is passive: no script, launch, embedded file or open action, in its plain text or
 * inside its Flate-compressed streams (bounded inflating; a PDF past the bound is refused as well).
 */
export function pdfIsPassive(data: Buffer): boolean {
  const text = data.toString('latin1');
  if (ACTIVE.test(unescapeNames(text))) return false;
  let budget = INFLATE_BUDGET;
  const streams = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streams.exec(text))) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    streams.lastIndex = end;
    let inflated: Buffer;
    try {
      inflated = inflateSync(data.subarray(start, end), { maxOutputLength: budget });
    } catch (err) {
      if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return false;
      continue; // not Flate (an image, plain content): its raw bytes were read above
    }
    budget -= inflated.length;
    if (ACTIVE.test(unescapeNames(inflated.toString('latin1')))) return false;
  }
  return true;
}

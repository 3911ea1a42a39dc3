import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, deflate, gzip } from 'node:zlib';
import type { FastifyRequest } from 'fastify';

// HTTP compression and validators shared by the read caches and the rendered pages (plugins/web.ts)

export type Coding = 'br' | 'gzip' | 'deflate';
const CODINGS: readonly Coding[] = ['br', 'gzip', 'deflate'];
/** Smaller answers go out as they are (the threshold @fastify/compress is registered with). */
export const COMPRESS_FROM_BYTES = 1024;
/** Compressors of a body into each coding: brotli at `brotliQuality`, gzip and deflate at `level`. */
export const compressorsAt = (brotliQuality: number, level: number): Record<Coding, (body: Buffer) => Promise<Buffer>> => ({
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level }),
  deflate: (body) => promisify(deflate)(body, { level }),
});

/**
 * `body` in `coding`, at a level worth it for an answer compressed once and sent many times:
 * compressed once per entry, on the thread pool, so a good level costs nothing per request.
 */
export const compressBody = compressorsAt(9, 9);

/** The coding to send: the one with the highest q the client accepts, br before gzip before deflate. */
export function acceptedCoding(req: FastifyRequest): Coding | undefined {
  const header = req.headers['accept-encoding'];
  if (!header || req.headers['x-no-compression'] !== undefined) return undefined;
  let best: Coding | undefined;
  let bestQ = 0;
  const q: Partial<Record<string, number>> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((s) => s.trim()).find((s) => s.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[name.trim()] = Number.isFinite(value) ? value : 0;
  }
  for (const coding of CODINGS) {
    const value = q[coding] ?? q['*'] ?? 0;
    if (value > bestQ) {
      best = coding;
      bestQ = value;
    }
  }
  return best;
}

/** Whether If-None-Match names this answer, in any coding (weak comparison, as RFC 9110 asks for it). */
export function etagMatches(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    if (tag === '*') return true;
    const opaque = tag.replace(/^W\//, '').replace(/^"|"$/g, '');
    return opaque === hash || CODINGS.some((c) => opaque === `${hash}-${c}`);
  });
}

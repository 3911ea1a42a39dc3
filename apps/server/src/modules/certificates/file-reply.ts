import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/**
 * A certificate's file as it is answered (docs/product.md#verified-coaches): its own type, shown
 * inline, never stored by a cache nor sniffed as another type, and a PDF sandboxed (no script, no form
 * posting, no navigation) even when opened straight from the address.
 */
export function sendCertificateFile(reply: FastifyReply, file: { stream: Readable; mime: string; bytes: number }) {
  reply
    .type(file.mime)
    .header('Cache-Control', 'private, no-store')
    .header('Content-Disposition', 'inline')
    .header('X-Content-Type-Options', 'nosniff');
  if (file.mime === 'application/pdf') reply.header('Content-Security-Policy', 'sandbox');
  return reply.send(file.stream);
}

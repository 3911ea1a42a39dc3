import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CERTIFICATE_MSG,
  CERTIFICATE_RULES,
  ZCertificatesResponse,
  ZCertificateUploadResponse,
  ZErrorResponse,
  ZIdParam,
} from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { CertificatesService } from './certificates.service';
import { sendCertificateFile } from './file-reply';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };
const UPLOADS_PER_HOUR = 20;
const FIELDS = new Set(['issuer', 'expiresOn']);

/** A trainer's certificates (docs/product.md#verified-coaches): upload, their own list and files. */
export function certificatesRoutes(service: CertificatesService, auth: Auth, limits: Pick<RateLimits, 'limit' | 'writes'>) {
  return async function (app: FastifyInstance) {
    // the size limit stops reading a file at 5 MB (the rest of the body is not read into memory)
    await app.register(fastifyMultipart, {
      limits: { fileSize: CERTIFICATE_RULES.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    const r = app.withTypeProvider<ZodTypeProvider>();
    const trainerOnly = auth.requireAuth('trainer');
    const uploads = limits.limit({
      name: 'certificate-uploads',
      max: UPLOADS_PER_HOUR,
      windowMs: 60 * 60_000,
      key: (req) => req.caller?.id,
    });

    r.post(
      '/trainer/certificates',
      {
        schema: {
          tags: ['certificates'],
          summary:
            'Upload a certificate (multipart: file, a PDF, JPEG, PNG or WebP of at most 5 MB; issuer; expiresOn YYYY-MM-DD); it waits for an operator',
          consumes: ['multipart/form-data'],
          response: { 201: ZCertificateUploadResponse, ...errors, 409: ZErrorResponse, 413: ZErrorResponse, 415: ZErrorResponse },
        },
        preHandler: [trainerOnly, uploads, ...limits.writes],
      },
      async (req, reply) => {
        if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', CERTIFICATE_MSG.fileRequired);
        const fields: Record<string, string> = {};
        let file: Buffer | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || file) {
                await part.toBuffer();
                throw new AppError('BAD_REQUEST', CERTIFICATE_MSG.fileRequired);
              }
              file = await part.toBuffer();
            } else if (FIELDS.has(part.fieldname) && typeof part.value === 'string') fields[part.fieldname] = part.value;
          }
        } catch (err) {
          if (err instanceof AppError) throw err;
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new AppError('PAYLOAD_TOO_LARGE', CERTIFICATE_MSG.fileTooLarge);
          throw new AppError('BAD_REQUEST', CERTIFICATE_MSG.fileRequired);
        }
        return reply.status(201).send(await service.upload(callerOf(req).id, fields, file));
      },
    );

    r.get(
      '/trainer/certificates',
      {
        schema: {
          tags: ['certificates'],
          summary: 'The trainer’s own certificates, newest first, with their status; and whether they are a verified coach now',
          response: { 200: ZCertificatesResponse, ...errors },
        },
        preHandler: trainerOnly,
      },
      async (req) => service.listOwn(callerOf(req).id),
    );

    r.get(
      '/trainer/certificates/:id/file',
      {
        schema: {
          tags: ['certificates'],
          summary: 'The file of one of the trainer’s own certificates (private, never cached)',
          params: ZIdParam(CERTIFICATE_MSG.notFound),
          response: { 200: z.any(), ...errors },
        },
        preHandler: trainerOnly,
      },
      async (req, reply) => sendCertificateFile(reply, await service.file(req.params.id.toLowerCase(), callerOf(req).id)),
    );
  };
}

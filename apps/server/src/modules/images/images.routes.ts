import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_BYTES, SERVER_MSG, SETTINGS_MSG, ZErrorResponse, ZImageResponse } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import { IMAGE_LIMITS, IMAGES_MSG } from './images.messages';
import { RetryLaterError, type ImagesService } from './images.service';

export function imagesRoutes(service: ImagesService, auth: Auth, limits: Pick<RateLimits, 'limit' | 'writes'>) {
  return async function (app: FastifyInstance) {
    await app.register(fastifyMultipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    const r = app.withTypeProvider<ZodTypeProvider>();
    // counted before the body is read: decoding is the expensive part, and a refused file costs it too
    const uploads = limits.limit({
      name: 'uploads',
      max: IMAGE_LIMITS.uploadsPerHour,
      windowMs: 60 * 60_000,
      key: (req) => req.caller?.id,
      message: (seconds) => IMAGES_MSG.rateLimited(Math.ceil(seconds / 60)),
    });

    r.post(
      '/images',
      {
        schema: {
          tags: ['images'],
          summary: 'Upload a photo (multipart field "file"; PNG, JPEG or WebP, at most 5 MB; 20 an hour, 20 stored per account)',
          consumes: ['multipart/form-data'],
          response: {
            201: ZImageResponse,
            400: ZErrorResponse,
            401: ZErrorResponse,
            409: ZErrorResponse,
            413: ZErrorResponse,
            415: ZErrorResponse,
            429: ZErrorResponse,
          },
        },
        preHandler: [auth.requireAuth(), uploads, ...limits.writes],
      },
      async (req, reply) => {
        if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', SETTINGS_MSG.imageMissing);
        let file;
        try {
          file = await req.file();
        } catch (err) {
          throw new AppError('BAD_REQUEST', (err as Error).message || SETTINGS_MSG.imageMissing);
        }
        if (!file || file.fieldname !== 'file') throw new AppError('BAD_REQUEST', SETTINGS_MSG.imageMissing);
        let input: Buffer;
        try {
          input = await file.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new AppError('PAYLOAD_TOO_LARGE', SETTINGS_MSG.imageTooLarge);
          throw new AppError('BAD_REQUEST', SETTINGS_MSG.imageMissing);
        }
        try {
          const url = await service.store(callerOf(req).id, input);
          return reply.status(201).send({ url });
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('Retry-After', err.retryAfterSeconds);
          throw err;
        }
      },
    );

    r.get(
      '/images/:file',
      {
        schema: {
          tags: ['images'],
          summary: 'A stored photo; the address holds the hash of its bytes, so it is cached for a year',
          params: z.object({ file: z.string() }),
        },
      },
      async (req, reply) => {
        const m = /^([0-9a-f]{64})\.webp$/.exec(req.params.file);
        const row = m ? await service.find(m[1]) : undefined;
        if (!row) throw new AppError('NOT_FOUND', SERVER_MSG.notFound);
        return reply
          .type(row.mime)
          .header('Cache-Control', 'public, max-age=31536000, immutable')
          .header('ETag', `"${m![1]}"`)
          .send(row.bytes);
      },
    );
  };
}

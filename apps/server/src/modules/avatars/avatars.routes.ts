import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { avatarSvg } from './avatar-svg';

/** Generated portraits for demo accounts; the same address always draws the same picture. */
export async function avatarsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/avatars/:file',
    {
      schema: {
        tags: ['images'],
        summary: 'A generated portrait (SVG)',
        params: z.object({ file: z.string().regex(/^[\w.-]{1,80}\.svg$/, 'Not found') }),
        querystring: z.object({ g: z.enum(['m', 'f']).optional() }),
      },
    },
    async (req, reply) => {
      const seed = req.params.file.slice(0, -4);
      const gender = req.query.g === 'm' ? 'male' : req.query.g === 'f' ? 'female' : undefined;
      return (
        reply
          .type('image/svg+xml')
          .header('Cache-Control', 'public, max-age=31536000, immutable')
          // replaces helmet's policy for this answer: no script at all, and never framed
          .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
          .send(avatarSvg(seed, gender))
      );
    },
  );
}

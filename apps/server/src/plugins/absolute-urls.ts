import type { FastifyInstance } from 'fastify';

/** Fields that hold a picture's address: `picture`, `reviewerProfilePhoto`, `senderPicture`, … */
const PICTURE_FIELD = /^(?:picture|\w+Picture|\w+Photo)$/;
/** A path on this server (one slash; `//host/x` would be another server). */
const OWN_PATH = /^\/(?!\/)/;

/**
 * A copy of `value` in which every picture field holding a path on this server is an absolute URL
 * on `base`. Parts without a picture field are shared, not copied; the input is never changed.
 */
export function withAbsolutePictures<T>(value: T, base: string): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = withAbsolutePictures(item, base);
      if (next !== item) (out ??= [...value])[i] = next;
    });
    return (out ?? value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    const next =
      typeof item === 'string'
        ? PICTURE_FIELD.test(key) && OWN_PATH.test(item)
          ? base + item
          : item
        : withAbsolutePictures(item, base);
    if (next !== item) (out ??= { ...record })[key] = next;
  }
  return (out ?? value) as T;
}

/** Images are fetched by pages and clients on other origins (CORS_ORIGINS, or PUBLIC_URL's host). */
const IMAGE_ROUTE = /^\/api\/(?:images|avatars)\/:/;

/**
 * Pictures are stored as paths (`/api/images/…`), but a client served from another origin would
 * resolve those against itself, so every answer carries them as absolute URLs on PUBLIC_URL, and
 * the images themselves may be embedded cross-origin.
 */
export function registerAbsoluteUrls(app: FastifyInstance, publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  app.addHook('preSerialization', async (_req, _reply, payload) => withAbsolutePictures(payload, base));
  app.addHook('onSend', async (req, reply) => {
    if (IMAGE_ROUTE.test(req.routeOptions.url ?? '')) reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from '../lib/app-error';

/**
 * `Content-Type: application/json` with an empty body is no body, as a client written against the
 * spec sends a capture (`POST /api/orders/:orderID/capture`); Fastify refused it with 400 "Body cannot
 * be empty". Any other body is parsed as Fastify parses JSON (docs/decisions/034-socket-and-sign-in-limits.md).
 *
 * A route whose schema wants a body still refuses an absent one with 400, in the product's words:
 * validated as `{}`, each required field answers its own message (not "expected object, received
 * null"); a schema that `{}` satisfies (optional fields, defaults) is not run on nothing, since an
 * absent body must not reset what defaults would (a trainer's weekly hours). A schema that accepts
 * no body at all (`.optional()`, a cancellation's reason) lets the route run without one, as `{}`.
 */
/** A JSON request's body as it came: what a webhook's signature covers (a parsed and re-read body may differ). */
const rawBodies = new WeakMap<FastifyRequest, string>();
export const rawJsonBody = (req: FastifyRequest): string | undefined => rawBodies.get(req);

export function registerEmptyJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    rawBodies.set(req, text);
    parseJson(req, text, done);
  });

  const absent = new WeakSet<FastifyRequest>();
  app.addHook('preValidation', async (req) => {
    const schema = req.routeOptions.schema?.body as { safeParse?: (value: unknown) => { success: boolean } } | undefined;
    if ((req.body !== undefined && req.body !== null) || !schema) return;
    req.body = {};
    // a schema that accepts no body at all (`.optional()`) runs its route on `{}`
    if (!schema.safeParse?.(undefined).success) absent.add(req);
  });
  // before any route's own preHandler: the body passed validation as `{}`, but there was none
  app.addHook('preHandler', async (req) => {
    if (absent.has(req)) throw new AppError('VALIDATION_FAILED', SERVER_MSG.bodyMissing);
  });
}

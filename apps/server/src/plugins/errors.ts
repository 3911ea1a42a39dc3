import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, ResponseSerializationError } from 'fastify-type-provider-zod';
import { DEFAULT_CODE_OF_STATUS, ERROR_STATUS, SERVER_MSG, type ErrorCode, type TErrorResponse } from '@spotter/shared';
import { isDatabaseUnavailable } from '../db/client';
import { AppError } from '../lib/app-error';

type ValidationIssue = { instancePath?: string; message?: string; keyword?: string; params?: { format?: string } };

/** Field → first message, from the type provider's validation errors. */
function fieldErrors(validation: ValidationIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const v of validation) {
    const key = (v.instancePath ?? '').split('/').filter(Boolean).join('.') || '_';
    if (!(key in errors)) errors[key] = v.message ?? SERVER_MSG.invalidInput;
  }
  return errors;
}

/** An id in the path that is not an id at all (ZIdParam): it names nothing, like an unknown id. */
const isMalformedPathId = (context: string | undefined, validation: ValidationIssue[]) =>
  context === 'params' && validation.every((v) => v.keyword === 'invalid_format' && v.params?.format === 'guid');

/** The one error shape, `{ message, statusCode, code, errors? }`, with the status the code goes with. */
export function errorBody(code: ErrorCode, message: string, errors?: Record<string, string>): TErrorResponse {
  return { message, statusCode: ERROR_STATUS[code], code, ...(errors ? { errors } : {}) };
}

/** A status Fastify or a plugin chose, with its default code; a 4xx without one is answered as 400. */
export function codeOfStatus(status: number): ErrorCode {
  return DEFAULT_CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

/** Seconds a client should wait before it tries again, when the database is unreachable. */
const DATABASE_RETRY_AFTER_S = 5;

const send = (reply: FastifyReply, code: ErrorCode, message: string, errors?: Record<string, string>) =>
  reply.status(ERROR_STATUS[code]).send(errorBody(code, message, errors));

/** Every error becomes `{ message, statusCode, code, errors? }`; a 5xx never tells the client why. */
export function registerErrorHandling(app: FastifyInstance) {
  // Without its parser a text/plain body gets the 415 below rather than "expected object, received
  // string"; it also keeps the API from reading bodies a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      // refused before the database was asked (platform/batch-loader.ts): the same advice as an outage
      if (err.code === 'DATABASE_UNAVAILABLE') reply.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return send(reply, err.code, err.message, err.errors);
    }
    if (isDatabaseUnavailable(err)) {
      // logged once per request at warn: an outage is the operator's to see, not a bug; through the
      // error serialiser, since a failed query's message carries its SQL and parameters
      req.log.warn({ err }, 'database unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return send(reply, 'DATABASE_UNAVAILABLE', SERVER_MSG.databaseUnavailable);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const validation = err.validation as unknown as ValidationIssue[];
      const errors = fieldErrors(validation);
      const first = Object.values(errors)[0];
      if (isMalformedPathId(err.validationContext, validation)) return send(reply, 'NOT_FOUND', first ?? SERVER_MSG.notFound);
      return send(reply, 'VALIDATION_FAILED', first ?? SERVER_MSG.invalidInput, errors);
    }
    if (err instanceof ResponseSerializationError) {
      req.log.error({ err, cause: err.cause }, 'response did not match its schema');
      return send(reply, 'INTERNAL', SERVER_MSG.internal);
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 'PAYLOAD_TOO_LARGE', SERVER_MSG.tooLarge);
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError)
      return send(reply, 'MALFORMED_JSON', SERVER_MSG.malformedJson);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return send(reply, 'UNSUPPORTED_MEDIA_TYPE', SERVER_MSG.unsupportedMediaType);
    if (status === 429) return send(reply, 'RATE_LIMITED', SERVER_MSG.tooMany);
    if (status >= 400 && status < 500) return send(reply, codeOfStatus(status), err.message);
    req.log.error({ err }, 'unhandled error');
    return send(reply, 'INTERNAL', SERVER_MSG.internal);
  });
}

/** The one error shape for every error a route or hook throws (`registerErrorHandling`), as a plugin others depend on. */
export const errorHandling = fp(async (app) => registerErrorHandling(app), { name: 'spotter-errors', fastify: '5.x' });

/**
 * Fastify's `frameworkErrors`: errors found while routing, before any route or hook runs (a path
 * whose percent-encoding does not decode, a parameter over the length limit). Same shape as the rest.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') {
    // a person who opened a broken address of the web app gets its not-found screen, not JSON
    if (!req.url.startsWith('/api/') && req.method === 'GET') return reply.redirect('/not-found', 302);
    return send(reply, 'BAD_REQUEST', SERVER_MSG.badUrl);
  }
  const code = codeOfStatus(err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400);
  return send(reply, code, code === 'URI_TOO_LONG' ? SERVER_MSG.badUrl : SERVER_MSG.badRequest);
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not even parse (headers too large, broken
 * HTTP) is answered on the socket, in the one error shape.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : 'BAD_REQUEST';
  const status = ERROR_STATUS[code];
  const message =
    code === 'REQUEST_TIMEOUT'
      ? 'The request took too long to arrive'
      : code === 'HEADERS_TOO_LARGE'
        ? SERVER_MSG.tooLarge
        : SERVER_MSG.badRequest;
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Unknown API paths answer a JSON 404; a known path asked with a method it does not take answers
 * 405 with `Allow`. Register after CORS, so another origin can read the answer.
 */
export async function registerApiNotFound(app: FastifyInstance) {
  await app.register(
    async (api) => {
      api.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0];
        const allowed = ROUTABLE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
        if (allowed.length) {
          reply.header('Allow', allowed.join(', '));
          return send(
            reply,
            'METHOD_NOT_ALLOWED',
            `${SERVER_MSG.methodNotAllowed}: ${req.method} ${path} (allowed: ${allowed.join(', ')})`,
          );
        }
        return send(reply, 'NOT_FOUND', `Not found: ${req.method} ${path}`);
      });
    },
    { prefix: '/api' },
  );
}

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, ResponseSerializationError } from 'fastify-type-provider-zod';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from '../lib/app-error';

type ValidationIssue = { instancePath?: string; message?: string };

/** Field → first message, from the type provider's validation errors. */
function fieldErrors(validation: ValidationIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const v of validation) {
    const key = (v.instancePath ?? '').split('/').filter(Boolean).join('.') || '_';
    if (!(key in errors)) errors[key] = v.message ?? SERVER_MSG.invalidInput;
  }
  return errors;
}

/** Every error becomes `{ message, statusCode, errors? }`; a 5xx never tells the client why. */
export function registerErrorHandling(app: FastifyInstance) {
  // Without its parser a text/plain body gets the 415 below rather than "expected object, received
  // string"; it also keeps the API from reading bodies a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply
        .status(err.statusCode)
        .send({ message: err.message, statusCode: err.statusCode, ...(err.errors ? { errors: err.errors } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = fieldErrors(err.validation as unknown as ValidationIssue[]);
      const first = Object.values(errors)[0];
      return reply.status(400).send({ message: first ?? SERVER_MSG.invalidInput, statusCode: 400, errors });
    }
    if (err instanceof ResponseSerializationError) {
      req.log.error({ err, cause: err.cause }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Something went wrong on our side', statusCode: 500 });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: SERVER_MSG.tooLarge, statusCode: 413 });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
      return reply.status(400).send({ message: SERVER_MSG.malformedJson, statusCode: 400 });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: SERVER_MSG.unsupportedMediaType, statusCode: 415 });
    }
    if (status === 429) {
      return reply.status(429).send({ message: SERVER_MSG.tooMany, statusCode: 429 });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: err.message, statusCode: status });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side', statusCode: 500 });
  });
}

/**
 * Fastify's `frameworkErrors`: errors found while routing, before any route or hook runs (a path
 * whose percent-encoding does not decode, a parameter over the length limit). Same shape as the rest.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') return reply.status(400).send({ message: SERVER_MSG.badUrl, statusCode: 400 });
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  return reply.status(status).send({ message: status === 414 ? SERVER_MSG.badUrl : SERVER_MSG.badRequest, statusCode: status });
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not even parse (headers too large, broken
 * HTTP) is answered on the socket, in the one error shape.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 408 ? 'The request took too long to arrive' : status === 431 ? SERVER_MSG.tooLarge : SERVER_MSG.badRequest;
  const body = JSON.stringify({ message, statusCode: status });
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
          return reply
            .status(405)
            .header('Allow', allowed.join(', '))
            .send({ message: `${SERVER_MSG.methodNotAllowed}: ${req.method} ${path} (allowed: ${allowed.join(', ')})`, statusCode: 405 });
        }
        return reply.status(404).send({ message: `Not found: ${req.method} ${path}`, statusCode: 404 });
      });
    },
    { prefix: '/api' },
  );
}

import type { FastifyError, FastifyInstance } from 'fastify';
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

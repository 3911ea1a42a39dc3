import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from '../lib/app-error';

/**
 * Where the first NUL character (U+0000) sits in a parsed value (a string, or one nested in objects
 * and arrays, keys included), as a dotted path; undefined when there is none. Iterative, so a deeply
 * nested body cannot overflow the stack.
 */
export function findNul(value: unknown, root = ''): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || '_';
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, path ? `${path}.${i}` : String(i)]));
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, item] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push([item, at]);
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store U+0000 in text, so a NUL byte that reached a query was a 500. Every route
 * refuses it here, before validation, in its path parameters, query string and body.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const part of [req.params, req.query, req.body]) {
      const field = findNul(part);
      if (field !== undefined)
        throw new AppError('VALIDATION_FAILED', SERVER_MSG.nulCharacter, { [field]: SERVER_MSG.nulCharacter });
    }
  });
}

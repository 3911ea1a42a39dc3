import type { preHandlerAsyncHookHandler } from 'fastify';
import { CONSOLE_MSG, SERVER_MSG } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { tokenFromHeader, type Auth } from '../../plugins/auth';
import { operatorOfSession, type ConsoleDeps } from './operators';

/**
 * Operators only: a console token whose operator is not removed and whose sessions were not ended
 * since (token version), read from the database on every call so a removal ends them at once on
 * every process. No token: 401; a member's token: 403; anything else: 401.
 */
export function requireOperator(deps: ConsoleDeps, auth: Auth): preHandlerAsyncHookHandler {
  return async function (req, reply) {
    const token = tokenFromHeader(req);
    if (!token) throw new AppError('UNAUTHENTICATED', SERVER_MSG.noToken);
    const claims = await deps.tokens.verifyConsole(token);
    if (!claims) {
      // a member's token that still works is the wrong role (403); any other is refused as a member's is (401)
      await auth.optionalAuth.call(this, req, reply);
      if (req.caller) throw new AppError('FORBIDDEN_ROLE', CONSOLE_MSG.onlyOperators);
      throw new AppError('TOKEN_INVALID', CONSOLE_MSG.signedOut);
    }
    const operator = await operatorOfSession(deps, claims);
    if (!operator) throw new AppError('TOKEN_INVALID', CONSOLE_MSG.signedOut);
    req.operator = operator;
  };
}

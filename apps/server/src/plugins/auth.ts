import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SERVER_MSG, type Role } from '@spotter/shared';
import type { Db } from '../db/client';
import { AppError } from '../lib/app-error';
import { findTokenState } from '../modules/accounts/accounts.repo';
import type { TokenStates } from '../modules/accounts/token-states';
import type { TokenService } from '../lib/tokens';

export type Caller = { id: string; role: Role };
/** A caller known only from a token's signature, with the token version its account must still have. */
export type SignedCaller = Caller & { tv: number };

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    signedCaller?: SignedCaller;
    /** An operator signed in to the console (modules/console), never a member. */
    operator?: { id: string; email: string };
  }
}

/** `Authorization: <token>` (as the spec sends it) or `Bearer <token>` (docs/product.md#authorization-header). */
export function tokenFromHeader(req: FastifyRequest): string | undefined {
  const raw = req.headers.authorization?.trim();
  if (!raw) return undefined;
  const token = raw.toLowerCase().startsWith('bearer ') ? raw.slice(7).trim() : raw;
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}

/**
 * Identity comes from the token alone, checked against the account on every call, so a password
 * change or a deleted account ends older tokens at once. With `states`, the account's state is
 * remembered until a change to it is announced (docs/decisions/023-token-check-cache.md).
 */
export function createAuth(db: Db, tokens: TokenService, states?: TokenStates) {
  async function identify(req: FastifyRequest): Promise<Caller | undefined> {
    const token = tokenFromHeader(req);
    if (!token) return undefined;
    const claims = await tokens.verify(token);
    if (!claims) throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
    const row = await (states ? states.get(claims.id) : findTokenState(db, claims.id));
    if (!row || row.deletedAt || row.role !== claims.role || row.tokenVersion !== claims.tv) {
      throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
    }
    return { id: claims.id, role: claims.role };
  }

  /** A preHandler that requires a token, and the given role when one is named. */
  function requireAuth(role?: Role, wrongRoleMessage?: string): preHandlerAsyncHookHandler {
    return async (req) => {
      const caller = await identify(req);
      if (!caller) throw new AppError('UNAUTHENTICATED', SERVER_MSG.noToken);
      if (role && caller.role !== role) {
        throw new AppError(
          'FORBIDDEN_ROLE',
          wrongRoleMessage ?? (role === 'trainer' ? SERVER_MSG.wrongRoleTrainer : SERVER_MSG.wrongRoleUser),
        );
      }
      req.caller = caller;
    };
  }

  /** A preHandler that reads the token when there is one and lets visitors through. */
  const optionalAuth: preHandlerAsyncHookHandler = async (req) => {
    req.caller = await identify(req);
  };

  /**
   * A preHandler for a hot route whose one statement checks the account itself (exists, not
   * deleted, same role and token version) and refuses otherwise: the token's signature and expiry
   * only, sparing a round trip. Sets `signedCaller` and `caller`; visitors pass with neither.
   */
  const signedOnly: preHandlerAsyncHookHandler = async (req) => {
    const token = tokenFromHeader(req);
    if (!token) return;
    const claims = await tokens.verify(token);
    if (!claims) throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
    req.signedCaller = { id: claims.id, role: claims.role, tv: claims.tv };
    req.caller = { id: claims.id, role: claims.role };
  };

  return { requireAuth, optionalAuth, signedOnly };
}
export type Auth = ReturnType<typeof createAuth>;

export const callerOf = (req: FastifyRequest): Caller => {
  if (!req.caller) throw new AppError('UNAUTHENTICATED', SERVER_MSG.noToken);
  return req.caller;
};

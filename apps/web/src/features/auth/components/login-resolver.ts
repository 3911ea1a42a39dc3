import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginRequest } from '@spotter/shared';

/** The log-in form's validation, in a chunk of its own (see lib/lazy-resolver.ts). */
export const loginResolver = zodResolver(ZLoginRequest);

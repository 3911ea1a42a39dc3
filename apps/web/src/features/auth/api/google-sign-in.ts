import { useMutation } from '@tanstack/react-query';
import type { TGoogleSignInRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/auth/google: the ID token exactly as Google gave it; the server verifies it and answers
 * `{ message, token }` like a login. Nothing decoded from it in the browser is trusted or sent.
 */
const signInWithGoogle = ({ role, credential }: TGoogleSignInRequest) =>
  apiRequest<{ message: string; token: string }>('/auth/google', { method: 'POST', body: { credential, role } });

export function useGoogleSignIn() {
  return useMutation({ mutationFn: signInWithGoogle });
}

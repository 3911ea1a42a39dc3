import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZResetPasswordRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

export type ResetPasswordPayload = z.output<typeof ZResetPasswordRequest>;

/** POST /api/password/reset with the token of the mailed link. */
const resetPassword = (data: ResetPasswordPayload) =>
  apiRequest<{ message: string }>('/password/reset', { method: 'POST', body: data });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

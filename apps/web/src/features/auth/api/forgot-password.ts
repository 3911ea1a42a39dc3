import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZForgotPasswordRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

export type ForgotPasswordPayload = z.output<typeof ZForgotPasswordRequest>;

/** POST /api/password/forgot; the same answer whether or not the account exists. */
const requestPasswordReset = (data: ForgotPasswordPayload) =>
  apiRequest<{ message: string }>('/password/forgot', { method: 'POST', body: data });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

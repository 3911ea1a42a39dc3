import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZChangePasswordRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';
import { storage } from '@/lib/storage';

export type ChangePasswordPayload = z.output<typeof ZChangePasswordRequest>;

/**
 * PATCH /api/{role}/password. Every older token stops working (docs/product.md#tokens), so the fresh one
 * is stored at once to keep this browser signed in.
 */
const changePassword = async ({ role, data }: { role: Role; data: ChangePasswordPayload }) => {
  const answer = await apiRequest<{ message: string; token: string }>(`/${role}/password`, { method: 'PATCH', body: data });
  storage.setToken(answer.token);
  return answer;
};

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

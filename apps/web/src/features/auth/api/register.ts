import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZTrainerSignUpRequest, ZUserSignUpRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

export type SignUpPayload = z.output<typeof ZUserSignUpRequest> | z.output<typeof ZTrainerSignUpRequest>;

/** POST /api/users/register or /api/trainers/register; 201 `{ message }`. */
const registerAccount = ({ role, data }: { role: Role; data: SignUpPayload }) =>
  apiRequest<{ message: string }>(`/${role === 'trainer' ? 'trainers' : 'users'}/register`, { method: 'POST', body: data });

export function useRegister() {
  return useMutation({ mutationFn: registerAccount });
}

import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZLoginRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

export type LoginPayload = z.output<typeof ZLoginRequest>;

/** POST /api/users/login or /api/trainers/login; 200 `{ message, token }`. */
const login = ({ role, data }: { role: Role; data: LoginPayload }) =>
  apiRequest<{ message: string; token: string }>(`/${role === 'trainer' ? 'trainers' : 'users'}/login`, {
    method: 'POST',
    body: data,
  });

export function useLogin() {
  return useMutation({ mutationFn: login });
}

import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

/** DELETE /api/{role} with the password: removes the personal data and ends every session. */
const deleteAccount = ({ role, password }: { role: Role; password: string }) =>
  apiRequest<{ message: string }>(`/${role}`, { method: 'DELETE', body: { password } });

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}

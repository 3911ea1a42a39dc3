import { useMutation } from '@tanstack/react-query';
import type { TNotifications } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

/** PATCH /api/{role}/notifications: account and marketing e-mails on or off. */
const setNotifications = ({ role, data }: { role: Role; data: TNotifications }) =>
  apiRequest<{ message: string }>(`/${role}/notifications`, { method: 'PATCH', body: data });

export function useSetNotifications() {
  return useMutation({ mutationFn: setNotifications });
}

import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZEditTrainerProfileRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

export type EditProfilePayload = z.output<typeof ZEditTrainerProfileRequest>;

/** PATCH /api/{role}/edit: personal details (and the price, for trainers). */
const editProfile = ({ role, data }: { role: Role; data: EditProfilePayload }) =>
  apiRequest<{ message: string }>(`/${role}/edit`, { method: 'PATCH', body: data });

export function useEditProfile() {
  return useMutation({ mutationFn: editProfile });
}

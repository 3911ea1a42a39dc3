import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

/** PATCH /api/{role}/edit/photo: makes an uploaded image (its `/api/images/…` URL) the photo. */
const editPhoto = ({ role, picture }: { role: Role; picture: string }) =>
  apiRequest<{ message: string }>(`/${role}/edit/photo`, { method: 'PATCH', body: { picture } });

export function useEditPhoto() {
  return useMutation({ mutationFn: editPhoto });
}

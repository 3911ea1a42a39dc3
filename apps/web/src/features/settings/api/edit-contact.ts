import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZContactRequest } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import type { Role } from '@/lib/paths';

export type ContactPayload = z.output<typeof ZContactRequest>;

/** PATCH /api/{role}/contact: phone, website, weight and height (each save adds a weight entry). */
const editContact = ({ role, data }: { role: Role; data: ContactPayload }) =>
  apiRequest<{ message: string }>(`/${role}/contact`, { method: 'PATCH', body: data });

export function useEditContact() {
  return useMutation({ mutationFn: editContact });
}

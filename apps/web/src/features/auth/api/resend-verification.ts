import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const resendVerification = () =>
  apiRequest<{ message: string }>('/verify/resend', { method: 'POST' });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}

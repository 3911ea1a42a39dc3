import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const subscribeNewsletter = ({ email }: { email: string }) =>
  apiRequest<{ message: string }>('/newsletter', { method: 'POST', body: { email } });

export function useSubscribeNewsletter() {
  return useMutation({ mutationFn: subscribeNewsletter });
}

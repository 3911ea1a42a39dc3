import { useQuery } from '@tanstack/react-query';
import type { TTrainerProfile } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/** GET /api/trainerData/:id: the trainer as the public sees it, with subscribers. 404 until listed. */
export const getPublicTrainer = (trainerId: string) =>
  apiRequest<{ trainerData: TTrainerProfile }>(`/trainerData/${encodeURIComponent(trainerId)}`).then(
    ({ trainerData }) => trainerData,
  );

export function usePublicTrainer(trainerId: string, { enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: ['profile', 'trainer', trainerId, 'public'], queryFn: () => getPublicTrainer(trainerId), enabled });
}

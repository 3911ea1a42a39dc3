import { useQuery } from '@tanstack/react-query';
import type { TPublicTrainer } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * The logged-in user's favourites as trainer cards: GET /api/favorites answers the ids,
 * GET /api/trainers?ids=… the trainers (verified ones only, in the list's order).
 */
export async function getFavoriteTrainers(): Promise<TPublicTrainer[]> {
  const { favorites } = await apiRequest<{ favorites: string[] }>('/favorites');
  if (favorites.length === 0) return [];
  const params = new URLSearchParams({ ids: favorites.join(','), limit: '100' });
  const { viewAllTrainers } = await apiRequest<{ viewAllTrainers: TPublicTrainer[] }>(`/trainers?${params.toString()}`);
  return viewAllTrainers;
}

export function useFavoriteTrainers() {
  return useQuery({ queryKey: ['account', 'user', 'favorites', 'trainers'], queryFn: getFavoriteTrainers });
}

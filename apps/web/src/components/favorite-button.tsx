import { Heart } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useFavorites, useToggleFavorite } from '@/lib/api/favorites';

type FavoriteButtonProps = {
  trainerId: string;
  firstName: string;
  className?: string;
};

/**
 * The heart: red when the trainer is a favourite, grey otherwise (docs/product.md#trainer-list). Every heart and
 * every list of favourites reads the one cached list, so a click shows everywhere at once.
 */
export function FavoriteButton({ trainerId, firstName, className }: FavoriteButtonProps) {
  const { isFavorite } = useFavorites();
  const toggleFavorite = useToggleFavorite();
  const isOn = isFavorite(trainerId);
  return (
    <button
      type="button"
      aria-pressed={isOn}
      aria-label={isOn ? `Remove ${firstName} from favourites` : `Add ${firstName} to favourites`}
      title={isOn ? 'Remove from favourites' : 'Add to favourites'}
      onClick={() => toggleFavorite(trainerId)}
      className={cn(
        'inline-flex size-11 items-center justify-center rounded-full bg-canvas shadow-card transition-transform duration-150',
        'hover:scale-105 active:scale-95',
        className,
      )}
    >
      <Heart
        aria-hidden="true"
        data-state={isOn ? 'on' : 'off'}
        className={cn('size-5', isOn ? 'fill-danger text-danger' : 'fill-transparent text-subtle')}
      />
    </button>
  );
}

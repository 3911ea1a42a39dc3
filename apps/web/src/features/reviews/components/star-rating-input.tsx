import { Star } from 'lucide-react';
import { useId, useState } from 'react';
import { FieldError } from '@/components/ui/field';
import { cn } from '@/lib/cn';

const WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

type StarRatingInputProps = {
  name: string;
  /** 1 to 5, or -1 for no choice yet (docs/product.md#states). */
  value: number;
  onChange: (value: number) => void;
  onBlur: () => void;
  error?: string;
};

/**
 * Five radio buttons drawn as stars: Tab reaches the group, the arrow keys choose, and screen
 * readers hear "3 stars, radio button, 3 of 5".
 */
export function StarRatingInput({ name, value, onChange, onBlur, error }: StarRatingInputProps) {
  const [hovered, setHovered] = useState<number | null>(null);
  const errorId = `${useId()}-error`;
  const shown = hovered ?? value;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 block text-sm font-semibold text-ink">Your rating</legend>
      <div className="flex items-center gap-3">
        <div className="flex" onMouseLeave={() => setHovered(null)}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label
              key={n}
              onMouseEnter={() => setHovered(n)}
              className="relative inline-flex size-11 cursor-pointer items-center justify-center rounded-lg has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-ink"
            >
              <input
                type="radio"
                name={name}
                value={n}
                checked={value === n}
                onChange={() => onChange(n)}
                onBlur={onBlur}
                aria-invalid={error ? true : undefined}
                className="peer sr-only"
              />
              <Star
                aria-hidden="true"
                className={cn(
                  'size-7 transition-transform duration-150 motion-safe:hover:scale-110',
                  n <= shown ? 'fill-accent text-ink' : 'fill-transparent text-line-strong',
                )}
              />
              <span className="sr-only">
                {n} {n === 1 ? 'star' : 'stars'}
              </span>
            </label>
          ))}
        </div>
        <span aria-hidden="true" className="text-sm font-medium text-muted">
          {WORDS[shown] ?? ''}
        </span>
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </fieldset>
  );
}

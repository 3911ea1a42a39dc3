import { BadgeCheck } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { EGYPT_CITIES } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { localDayKey } from '@/lib/format';
import { useIsHydrating, useKeepEarlyInput } from '@/lib/hydration';
import { useDebouncedField } from '../hooks/use-debounced-field';
import {
  hasActiveFilters,
  MAX_PRICE,
  MIN_RATING_OPTIONS,
  type Gender,
  type TrainerAvailable,
  type TrainerSearch,
} from '../utils/trainer-search';
import { SelectField } from './select-field';

type TrainerFiltersProps = {
  search: TrainerSearch;
  onChange: (change: Partial<TrainerSearch>, options?: { replace?: boolean }) => void;
  onClear: () => void;
  favoriteCount: number;
};

const ratingOptions = [
  { value: '', label: 'Any rating' },
  ...MIN_RATING_OPTIONS.map((rating) => ({ value: String(rating), label: `${rating.toFixed(1)} and up` })),
];
const genderOptions = [
  { value: '', label: 'Any gender' },
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
];
const availableOptions: Array<{ value: TrainerAvailable | ''; label: string }> = [
  { value: '', label: 'Any time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'This week' },
  { value: 'mornings', label: 'Mornings (6:00–12:00)' },
  { value: 'evenings', label: 'Evenings (17:00–22:00)' },
];
/** Sessions can be booked up to 14 days ahead (docs/product.md#booking-and-payment). */
const BOOKABLE_DAYS = 14;
const DAY_MS = 24 * 60 * 60_000;
const cityOptions = [{ value: '', label: 'All cities' }, ...EGYPT_CITIES.map((city) => ({ value: city, label: city }))];

const parsePrice = (raw: string) => {
  const value = Number(raw);
  return raw.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MAX_PRICE ? value : undefined;
};

/** A price box that updates the list after a pause in typing. */
function PriceField({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: number | undefined;
  onCommit: (value: number | undefined) => void;
}) {
  const { draft, setDraft, flush } = useDebouncedField(value?.toString() ?? '', (raw) => {
    const next = parsePrice(raw);
    if (next !== value) onCommit(next);
  });
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_PRICE}
      step={10}
      prefix="$"
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={flush}
      onKeyDown={(event) => {
        if (event.key === 'Enter') flush();
      }}
    />
  );
}

/**
 * Price range, minimum rating, gender, city, verified coaches and favourites (docs/product.md#trainer-list-search,
 * docs/product.md#verified-coaches).
 */
export function TrainerFilters({ search, onChange, onClear, favoriteCount }: TrainerFiltersProps) {
  const favoritesId = useId();
  const favoritesBox = useRef<HTMLInputElement>(null);
  const onFavoritesOnly = (event: ChangeEvent<HTMLInputElement>) => onChange({ favoritesOnly: event.target.checked });
  useKeepEarlyInput(favoritesBox, { checked: search.favoritesOnly, onChange: onFavoritesOnly });
  const verifiedId = useId();
  const verifiedBox = useRef<HTMLInputElement>(null);
  const onVerifiedOnly = (event: ChangeEvent<HTMLInputElement>) => onChange({ verified: event.target.checked });
  useKeepEarlyInput(verifiedBox, { checked: search.verified, onChange: onVerifiedOnly });
  // today in the viewer's zone, which the server that rendered the page does not know
  const isHydrating = useIsHydrating();
  return (
    <div className="space-y-5">
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-ink">Price per session</legend>
        <div className="grid grid-cols-2 gap-3">
          <PriceField
            label="Min price"
            value={search.minPrice}
            onCommit={(minPrice) => onChange({ minPrice }, { replace: true })}
          />
          <PriceField
            label="Max price"
            value={search.maxPrice}
            onCommit={(maxPrice) => onChange({ maxPrice }, { replace: true })}
          />
        </div>
      </fieldset>

      <SelectField
        label="Minimum rating"
        options={ratingOptions}
        value={search.minRating?.toString() ?? ''}
        onChange={(event) => onChange({ minRating: event.target.value ? Number(event.target.value) : undefined })}
      />
      <SelectField
        label="Gender"
        options={genderOptions}
        value={search.gender ?? ''}
        onChange={(event) => onChange({ gender: (event.target.value || undefined) as Gender | undefined })}
      />
      <SelectField
        label="City"
        options={cityOptions}
        value={search.city ?? ''}
        onChange={(event) => onChange({ city: (event.target.value || undefined) as TrainerSearch['city'] })}
      />

      <SelectField
        label="Available"
        options={availableOptions}
        value={search.available ?? ''}
        onChange={(event) => onChange({ available: (event.target.value || undefined) as TrainerAvailable | undefined })}
      />
      <TextField
        label="Available on"
        type="date"
        min={isHydrating ? undefined : localDayKey(new Date().toISOString())}
        max={isHydrating ? undefined : localDayKey(new Date(Date.now() + (BOOKABLE_DAYS - 1) * DAY_MS).toISOString())}
        value={search.availableOn ?? ''}
        onChange={(event) => onChange({ availableOn: event.target.value || undefined }, { replace: true })}
      />

      <div className="flex min-h-11 items-center gap-3">
        <input
          ref={verifiedBox}
          id={verifiedId}
          type="checkbox"
          checked={search.verified}
          onChange={onVerifiedOnly}
          className="size-5 cursor-pointer accent-ink"
        />
        <label htmlFor={verifiedId} className="cursor-pointer text-sm font-semibold text-ink">
          Verified coaches only
        </label>
        <BadgeCheck className="ml-auto size-5 text-success" aria-hidden="true" />
      </div>

      <div className="flex min-h-11 items-center gap-3">
        <input
          ref={favoritesBox}
          id={favoritesId}
          type="checkbox"
          checked={search.favoritesOnly}
          onChange={onFavoritesOnly}
          className="size-5 cursor-pointer accent-ink"
        />
        <label htmlFor={favoritesId} className="cursor-pointer text-sm font-semibold text-ink">
          Favourites only
        </label>
        <span className="ml-auto rounded-full bg-surface px-2 py-0.5 text-xs font-semibold text-muted" aria-hidden="true">
          {favoriteCount}
        </span>
      </div>

      {hasActiveFilters(search) && (
        <Button variant="outline" className="w-full" onClick={onClear}>
          Reset filters
        </Button>
      )}
    </div>
  );
}

/** The lengths of a standing weekly series (docs/product.md#standing-weekly-sessions). */
export const SERIES_WEEKS = [4, 8, 12] as const;
export type Weeks = (typeof SERIES_WEEKS)[number];

type WeeksChoiceProps = {
  /** The group's name as a screen reader reads it: 'With your package, book'. */
  legend: string;
  /** The radios' `name`: unique on the screen, so the arrow keys stay within this group. */
  name: string;
  choices: readonly Weeks[];
  /** null: just this session. */
  value: Weeks | null;
  onChange: (weeks: Weeks | null) => void;
  disabled?: boolean;
  /** What booking every week does, under the choices. */
  hint: string;
};

/** 'Just this session' or 'Every week for N weeks', as one labelled radio group (arrow keys move within it). */
export function WeeksChoice({ legend, name, choices, value, onChange, disabled, hint }: WeeksChoiceProps) {
  return (
    <fieldset className="space-y-1">
      <legend className="mb-1 text-sm font-semibold text-ink">{legend}</legend>
      {[null, ...choices].map((choice) => (
        <label key={choice ?? 'once'} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-ink">
          <input
            type="radio"
            name={name}
            className="size-4 accent-ink"
            checked={value === choice}
            onChange={() => onChange(choice)}
            disabled={disabled}
          />
          {choice === null ? 'Just this session' : `Every week for ${choice} weeks`}
        </label>
      ))}
      <p className="text-xs text-muted">{hint}</p>
    </fieldset>
  );
}

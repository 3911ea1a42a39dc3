import { Search, X } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { inputClasses } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { useKeepEarlyInput } from '@/lib/hydration';
import { useDebouncedField } from '../hooks/use-debounced-field';

type TrainerSearchBoxProps = {
  value: string;
  onSearch: (q: string) => void;
};

/** Searches names, titles and descriptions ~300 ms after the last key stroke. */
export function TrainerSearchBox({ value, onSearch }: TrainerSearchBoxProps) {
  const inputId = useId();
  const { draft, setDraft, flush } = useDebouncedField(value, (q) => {
    if (q.trim() !== value.trim()) onSearch(q);
  });
  const input = useRef<HTMLInputElement>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => setDraft(event.target.value);
  useKeepEarlyInput(input, { value: draft, onChange });
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        flush();
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        Search trainers
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-subtle" aria-hidden="true" />
        <input
          ref={input}
          id={inputId}
          type="search"
          // without the app (not yet loaded, or no JavaScript) Enter searches by the address: /trainers?q=…
          name="q"
          value={draft}
          maxLength={100}
          onChange={onChange}
          placeholder="Name, speciality or goal"
          autoComplete="off"
          enterKeyHint="search"
          className={cn(
            inputClasses,
            'min-h-12 rounded-full border-line-strong pr-12 pl-12 hover:border-muted [&::-webkit-search-cancel-button]:hidden',
          )}
        />
        {draft && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setDraft('');
              if (value !== '') onSearch('');
            }}
            className="absolute top-1/2 right-1 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full text-subtle hover:text-ink"
          >
            <X className="size-5" aria-hidden="true" />
          </button>
        )}
      </div>
    </form>
  );
}

import { ChevronDown } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { inputClasses } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { useKeepEarlyInput, useOwnRef } from '@/lib/hydration';

type SelectOption = { value: string; label: string };

type SelectFieldProps = ComponentProps<'select'> & {
  label: string;
  options: SelectOption[];
  /** Label beside the box instead of above it (the sort control). */
  isInline?: boolean;
  containerClassName?: string;
};

/** A native select with the label above (or beside) it, styled like the text fields. */
export function SelectField({
  label,
  options,
  isInline = false,
  id,
  className,
  containerClassName,
  ref,
  ...props
}: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const [select, setRef] = useOwnRef(ref);
  useKeepEarlyInput(select, props);
  return (
    <div className={cn(isInline && 'flex items-center gap-2', containerClassName)}>
      <label htmlFor={selectId} className={cn('block text-sm font-semibold text-ink', isInline ? 'shrink-0' : 'mb-1.5')}>
        {label}
      </label>
      <div className="relative min-w-0 flex-1">
        <select
          ref={setRef}
          id={selectId}
          className={cn(inputClasses, 'cursor-pointer appearance-none border-line-strong pr-10 hover:border-muted', className)}
          {...props}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-subtle"
          aria-hidden="true"
        />
      </div>
    </div>
  );
}

import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useKeepEarlyInput, useOwnRef } from '@/lib/hydration';

export const inputClasses =
  'block w-full min-h-11 rounded-xl border bg-canvas px-3.5 py-2.5 text-base text-ink placeholder:text-subtle ' +
  'transition-colors duration-150 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-accent-ink/40 ' +
  'disabled:bg-surface disabled:text-subtle';

type FieldIds = { inputId: string; hintId?: string; errorId?: string; describedBy?: string };

function useFieldIds(id: string | undefined, hint: ReactNode, error: string | undefined): FieldIds {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return { inputId, hintId, errorId, describedBy };
}

export function FieldError({ id, children }: { id?: string; children?: string }) {
  if (!children) return null;
  return (
    <p id={id} className="mt-1.5 text-sm font-medium text-danger">
      {children}
    </p>
  );
}

export type TextFieldProps = Omit<ComponentProps<'input'>, 'prefix'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shown inside the box before the value, e.g. "$" (decorative; say it in the hint too). */
  prefix?: ReactNode;
  /** Shown inside the box after the value, e.g. "cm" or a show-password button. */
  suffix?: ReactNode;
  containerClassName?: string;
};

/** Label above, input, optional hint, and the error under the field (docs/architecture.md#conventions: forms). */
export function TextField({
  label,
  error,
  hint,
  prefix,
  suffix,
  id,
  className,
  containerClassName,
  ref,
  ...inputProps
}: TextFieldProps) {
  const { inputId, hintId, errorId, describedBy } = useFieldIds(id, hint, error);
  const [input, setRef] = useOwnRef(ref);
  useKeepEarlyInput(input, inputProps);
  return (
    <div className={containerClassName}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative">
        {prefix && (
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3.5 text-subtle">
            {prefix}
          </span>
        )}
        <input
          ref={setRef}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            inputClasses,
            error ? 'border-danger' : 'border-line-strong hover:border-muted',
            prefix ? 'pl-8' : undefined,
            suffix ? 'pr-14' : undefined,
            className,
          )}
          {...inputProps}
        />
        {suffix && <span className="absolute inset-y-0 right-0 flex items-center pr-1">{suffix}</span>}
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-subtle">
          {hint}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A unit shown at the end of an input ("cm", "kg"); decorative, the hint says it in words. */
export function InputUnit({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="pointer-events-none pr-3 text-sm text-subtle">
      {children}
    </span>
  );
}

type Option = { value: string; label: string };

type RadioGroupProps = Omit<ComponentProps<'input'>, 'type'> & {
  legend: string;
  options: Option[];
  error?: string;
};

/** Radios in a fieldset; `inputProps` (e.g. react-hook-form's register) go on every radio. */
export function RadioGroup({ legend, options, error, name, className, ...inputProps }: RadioGroupProps) {
  const groupId = useId();
  const errorId = error ? `${groupId}-error` : undefined;
  return (
    <fieldset aria-describedby={errorId} className={className}>
      <legend className="mb-1.5 block text-sm font-semibold text-ink">{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex min-h-11 cursor-pointer items-center gap-2.5 rounded-xl border border-line-strong px-4 has-[:checked]:border-ink has-[:checked]:bg-accent-soft has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-ink/40"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              aria-invalid={error ? true : undefined}
              className="size-4 accent-ink focus-visible:outline-none"
              {...inputProps}
            />
            <span className="text-sm font-medium text-ink">{option.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </fieldset>
  );
}

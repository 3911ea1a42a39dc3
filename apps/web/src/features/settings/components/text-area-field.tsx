import { useId, type ComponentProps } from 'react';
import { FieldError, inputClasses } from '@/components/ui/field';
import { cn } from '@/lib/cn';

type TextAreaFieldProps = ComponentProps<'textarea'> & {
  label: string;
  error?: string;
  /** Shows "n / max" under the field. */
  length?: number;
  maxLength?: number;
};

/** A labelled textarea in the look of TextField, with an optional character count. */
export function TextAreaField({ label, error, length, maxLength, id, className, ...props }: TextAreaFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const countId = `${inputId}-count`;
  const errorId = `${inputId}-error`;
  const describedBy = [length !== undefined ? countId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-semibold text-ink">
        {label}
      </label>
      <textarea
        id={inputId}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(inputClasses, 'resize-y', error ? 'border-danger' : 'border-line-strong hover:border-muted', className)}
        {...props}
      />
      {length !== undefined && maxLength !== undefined && (
        <p id={countId} className={cn('mt-1.5 text-right text-xs', length > maxLength ? 'text-danger' : 'text-subtle')}>
          {length} / {maxLength} characters
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

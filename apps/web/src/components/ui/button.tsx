import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';
import { useIsHydrating } from '@/lib/hydration';
import { NEEDS_CONNECTION, useOnline } from '@/lib/online';
import { Spinner } from './spinner';

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'outline' | 'on-ink';
type ButtonSize = 'md' | 'lg' | 'icon';

const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap transition-colors duration-150 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 select-none';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-ink hover:bg-accent-hover',
  secondary: 'bg-ink text-on-ink hover:bg-ink-soft',
  outline: 'border border-line-strong bg-canvas text-ink hover:bg-surface',
  ghost: 'text-ink hover:bg-surface',
  'on-ink': 'text-on-ink hover:bg-ink-soft',
};

const sizes: Record<ButtonSize, string> = {
  md: 'min-h-11 px-5 text-sm',
  lg: 'min-h-12 px-7 text-base',
  icon: 'size-11 shrink-0',
};

/** The button look, for links that should look like buttons. */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn(base, variants[variant], sizes[size], className);
}

type ButtonProps = ComponentProps<'button'> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and blocks clicks; the label stays so the accessible name does not change. */
  isLoading?: boolean;
  /**
   * A form's submit button sends it to the server, so it waits while the browser is offline and says
   * why (docs/product.md#installable-and-offline); `worksOffline` for a form that keeps what it sends
   * until the connection returns (a chat message).
   */
  worksOffline?: boolean;
};

export function Button({
  variant,
  size,
  isLoading = false,
  className,
  disabled,
  children,
  type = 'button',
  worksOffline = false,
  ...props
}: ButtonProps) {
  // A page the server rendered shows its forms before the app runs. Until then a submit button
  // waits (Enter too), so the browser never sends a form itself, with its fields (a password) in the address.
  const isHydrating = useIsHydrating();
  const isOnline = useOnline();
  const waitsForConnection = type === 'submit' && !worksOffline && !isOnline;
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, className })}
      disabled={disabled || isLoading || (type === 'submit' && isHydrating) || waitsForConnection}
      aria-busy={isLoading || undefined}
      {...(waitsForConnection ? { title: NEEDS_CONNECTION } : {})}
      {...props}
    >
      {isLoading && <Spinner label={null} className="size-4" />}
      {children}
    </button>
  );
}

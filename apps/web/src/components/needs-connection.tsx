import { useId, type ReactNode } from 'react';
import { NEEDS_CONNECTION, useOnline } from '@/lib/online';

type NeedsConnection = {
  isOnline: boolean;
  /** For the button that needs the network: its title and what describes it while offline. */
  buttonProps: { title?: string; 'aria-describedby'?: string };
  /** The sentence the button points to while offline, null online. */
  note: ReactNode;
};

/**
 * A write that needs the network (booking, a review) is disabled while offline and says why
 * (docs/product.md#installable-and-offline): `disabled={… || !isOnline}`, `{...buttonProps}`, and
 * `note` near the button.
 */
export function useNeedsConnection(): NeedsConnection {
  const isOnline = useOnline();
  const id = useId();
  if (isOnline) return { isOnline, buttonProps: {}, note: null };
  return {
    isOnline,
    buttonProps: { title: NEEDS_CONNECTION, 'aria-describedby': id },
    note: (
      <p id={id} className="text-sm text-muted">
        {NEEDS_CONNECTION}
      </p>
    ),
  };
}

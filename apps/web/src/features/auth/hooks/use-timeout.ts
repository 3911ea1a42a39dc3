import { useCallback, useEffect, useRef } from 'react';

/**
 * Schedules one delayed action that is cancelled when the component unmounts (the redirects
 * after sign-up and login). `onCancel` runs instead when the timer is cancelled that way.
 */
export function useTimeout() {
  const pending = useRef<{ id: ReturnType<typeof setTimeout>; onCancel?: () => void } | null>(null);

  useEffect(
    () => () => {
      if (!pending.current) return;
      clearTimeout(pending.current.id);
      pending.current.onCancel?.();
      pending.current = null;
    },
    [],
  );

  return useCallback((action: () => void, ms: number, onCancel?: () => void) => {
    if (pending.current) clearTimeout(pending.current.id);
    const id = setTimeout(() => {
      pending.current = null;
      action();
    }, ms);
    pending.current = { id, onCancel };
  }, []);
}

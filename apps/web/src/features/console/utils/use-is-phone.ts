import { useSyncExternalStore } from 'react';

const PHONE_QUERY = '(max-width: 639px)';
const subscribeToWidth = (onChange: () => void) => {
  const query = window.matchMedia?.(PHONE_QUERY);
  query?.addEventListener?.('change', onChange);
  return () => query?.removeEventListener?.('change', onChange);
};
const isPhoneWidth = () => window.matchMedia?.(PHONE_QUERY).matches ?? false;

/** A phone's width: the console's tables become lists of cards there. */
export const useIsPhone = () => useSyncExternalStore(subscribeToWidth, isPhoneWidth, () => false);

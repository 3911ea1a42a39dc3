import { useSyncExternalStore } from 'react';

/**
 * Booking changes the other side made while this tab was open (a new booking, a cancellation, a
 * move, a no-show), counted for the header's badge on the profile icon, where the sessions and the
 * schedule are. The socket (lib/ws-client.ts) counts them; opening the profile clears the count. A
 * module of its own, so the header does not load the socket's code to read it.
 */
let count = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const bookingUpdates = {
  add() {
    count += 1;
    emit();
  },
  clear() {
    if (count === 0) return;
    count = 0;
    emit();
  },
};

export function useBookingUpdates() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => count,
    () => 0,
  );
}

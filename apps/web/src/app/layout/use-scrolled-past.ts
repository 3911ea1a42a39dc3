import { useCallback, useSyncExternalStore } from 'react';

/**
 * The window's scroll position as of its last scroll event. Reading `window.scrollY` forces a
 * layout when the page has changed since the last one, and React reads a store's snapshot on every
 * render of the component and again when it checks a render for consistency, so reading it there
 * cost a full layout of the page each time (hundreds of milliseconds of a phone's first load on the
 * trainer list). The scroll event reads it once per scroll, when the layout is fresh anyway.
 */
let lastScrollY = 0;
const listeners = new Set<() => void>();

const onScroll = () => {
  lastScrollY = window.scrollY;
  for (const listener of listeners) listener();
};

const subscribe = (onChange: () => void) => {
  if (listeners.size === 0) {
    window.addEventListener('scroll', onScroll, { passive: true });
    // subscribing happens after the first paint: the page may have opened scrolled
    lastScrollY = window.scrollY;
  }
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) window.removeEventListener('scroll', onScroll);
  };
};

/** True once the page is scrolled more than `offset` pixels; re-renders only when that flips. */
export function useScrolledPast(offset: number) {
  const getSnapshot = useCallback(() => lastScrollY > offset, [offset]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

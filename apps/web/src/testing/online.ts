import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** The browser's word on the network (`navigator.onLine`), and the event it fires when that changes. */
export function goOnline(isOnline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(isOnline);
  act(() => {
    window.dispatchEvent(new Event(isOnline ? 'online' : 'offline'));
  });
}

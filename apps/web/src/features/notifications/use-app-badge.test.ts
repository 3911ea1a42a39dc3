import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppBadge } from './use-app-badge';

const fakeNavigator = () => {
  const calls: string[] = [];
  return {
    calls,
    nav: {
      setAppBadge: (n?: number) => (calls.push(`set ${n}`), Promise.resolve()),
      clearAppBadge: () => (calls.push('clear'), Promise.resolve()),
    },
  };
};

describe('useAppBadge', () => {
  it('shows the unread count on the app icon, clears it at 0 and when the app lets go (logout)', () => {
    const { calls, nav } = fakeNavigator();
    const { rerender, unmount } = renderHook(({ count }) => useAppBadge(count, nav), { initialProps: { count: 3 } });
    rerender({ count: 0 });
    rerender({ count: 1 });
    unmount();
    expect(calls).toEqual(['set 3', 'clear', 'set 1', 'clear']);
  });

  it('leaves a browser without the Badging API alone', () => {
    expect(() => renderHook(() => useAppBadge(2, {}))).not.toThrow();
  });
});

import { useEffect } from 'react';

type BadgeNavigator = {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

/**
 * The installed app's icon shows `count` (the unread messages) while the app is open, and nothing
 * when it is 0 or the app closes this (logout). Browsers without the Badging API are left alone.
 */
export function useAppBadge(count: number, nav: BadgeNavigator = navigator as BadgeNavigator) {
  useEffect(() => {
    if (!nav.setAppBadge || !nav.clearAppBadge) return;
    // a browser may refuse (no permission, not installed): the badge is only a hint
    const ignore = () => undefined;
    if (count > 0) nav.setAppBadge(count).catch(ignore);
    else nav.clearAppBadge().catch(ignore);
  }, [count, nav]);
  useEffect(
    () => () => {
      nav.clearAppBadge?.().catch(() => undefined);
    },
    [nav],
  );
}

import { useChatViewer, useUnreadCount } from '@/lib/api/chats';
import { useAppBadge } from './use-app-badge';

/**
 * What notifications need on every page while someone is signed in (docs/product.md#notifications):
 * the app icon's badge follows the unread messages the header counts. Renders nothing.
 */
export function NotificationsRoot() {
  const viewer = useChatViewer();
  useAppBadge(useUnreadCount(viewer));
  return null;
}

import { ROLE_MSG } from '@spotter/shared';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';

/**
 * 'Book now!' and the chat button follow the role rules of docs/product.md#roles-and-permissions: a user's 'Book now!'
 * calls `onBook` (the booking dialog), their 'Message' calls `onMessage` (the chat panel).
 */
export function useTrainerActions(
  firstName: string,
  { onBook, onMessage }: { onBook?: () => void; onMessage?: () => void } = {},
) {
  const { isLoggedIn, role } = useSession();

  const book = () => {
    if (!isLoggedIn) notify.message(ROLE_MSG.loginToBook);
    else if (role === 'trainer') notify.error(ROLE_MSG.trainersCantBook);
    else onBook?.();
  };

  const message = () => {
    if (!isLoggedIn) notify.message(ROLE_MSG.onlyUsersMessage);
    else if (role === 'trainer') notify.error(ROLE_MSG.trainersCantMessage);
    else if (onMessage) onMessage();
    else notify.message('Chat with trainers is coming soon.');
  };

  return { book, message };
}

import { ROLE_MSG } from '@spotter/shared';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';

/**
 * 'Book now!' and the chat button follow the role rules of spec section 6. Booking and chat for
 * users arrive with their own releases; until then a user gets a short note, not a dead button.
 */
export function useTrainerActions(firstName: string) {
  const { isLoggedIn, role } = useSession();

  const book = () => {
    if (!isLoggedIn) notify.message(ROLE_MSG.loginToBook);
    else if (role === 'trainer') notify.error(ROLE_MSG.trainersCantBook);
    else notify.message(`Booking opens soon: ${firstName} will publish their schedule here.`);
  };

  const message = () => {
    if (!isLoggedIn) notify.message(ROLE_MSG.onlyUsersMessage);
    else if (role === 'trainer') notify.error(ROLE_MSG.trainersCantMessage);
    else notify.message('Chat with trainers is coming soon.');
  };

  return { book, message };
}

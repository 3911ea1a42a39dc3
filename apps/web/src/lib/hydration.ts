import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;
const onTheClient = () => false;
const onTheServer = () => true;

/**
 * True on the server and while React hydrates the page the server rendered; false from the render
 * right after. What a component reads from the browser alone (local or session storage) must not
 * show while this is true: the server could not know it, and hydration keeps the server's markup,
 * so a different first render would leave the page wrong (React does not patch attributes).
 */
export const useIsHydrating = () => useSyncExternalStore(subscribeToNothing, onTheClient, onTheServer);

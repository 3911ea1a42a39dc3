import { useCallback, useLayoutEffect, useRef, useSyncExternalStore, type ChangeEvent, type Ref, type RefObject } from 'react';

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

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type FieldProps<E extends Field> = { value?: unknown; checked?: boolean; onChange?: (event: ChangeEvent<E>) => void };

/**
 * For a controlled field: what was typed or chosen in a page the server rendered, before the app
 * ran, is kept on screen by hydration but is not in state, and the next render would put the old
 * value back. Once mounted, a field that shows something else than its props says so through its
 * own `onChange`, as the person's change. A field the app rendered itself always matches: nothing happens.
 */
export function useKeepEarlyInput<E extends Field>(ref: RefObject<E | null>, { value, checked, onChange }: FieldProps<E>) {
  useLayoutEffect(() => {
    const field = ref.current;
    if (!field || !onChange) return;
    const isChecked = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    const changed = isChecked
      ? checked !== undefined && field.checked !== checked
      : value !== undefined && field.value !== String(value);
    if (changed) onChange({ target: field, currentTarget: field } as ChangeEvent<E>);
    // once, when the field mounts: what it showed before the app ran
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** One ref for a component's own use and the caller's (a function, as react-hook-form's, or an object). */
export function useOwnRef<E extends Element>(callerRef: Ref<E> | undefined) {
  const own = useRef<E>(null);
  const setRef = useCallback(
    (node: E | null) => {
      own.current = node;
      if (typeof callerRef === 'function') return callerRef(node);
      if (callerRef) callerRef.current = node;
    },
    [callerRef],
  );
  return [own, setRef] as const;
}

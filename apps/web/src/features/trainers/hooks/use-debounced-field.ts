import { useEffect, useLayoutEffect, useRef, useState } from 'react';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A text box bound to a value held elsewhere (the address): it shows what is typed at once and
 * commits it after a pause. When the outside value changes by itself (Clear filters, the back
 * button), the box follows.
 */
export function useDebouncedField(value: string, onCommit: (draft: string) => void, delay = SEARCH_DEBOUNCE_MS) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setDraft(value);
  }

  const commitRef = useRef(onCommit);
  useLayoutEffect(() => {
    commitRef.current = onCommit;
  });

  useEffect(() => {
    if (draft === value) return;
    const timer = window.setTimeout(() => commitRef.current(draft), delay);
    return () => window.clearTimeout(timer);
  }, [draft, value, delay]);

  /** Commits at once (Enter, leaving the field). */
  const flush = () => {
    if (draft !== value) commitRef.current(draft);
  };

  return { draft, setDraft, flush };
}

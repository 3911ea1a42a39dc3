import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * After a route change (a new path, not a new search: the trainer list's filters keep the focus
 * where it is), focus moves to the new page's heading and its name is announced, as a page load
 * would for a screen reader. A page still loading has no heading yet: focus waits for it a moment,
 * then goes to the main landmark.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main) return;
    let done = false;
    const land = () => {
      const heading = main.querySelector('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      setMessage(heading.textContent?.trim() || document.title);
      return true;
    };
    if (land()) return;
    const observer = new MutationObserver(() => {
      if (!done && land()) {
        done = true;
        observer.disconnect();
      }
    });
    observer.observe(main, { childList: true, subtree: true });
    // no heading after a while (an error or a page without one): the main landmark takes the focus
    const fallback = window.setTimeout(() => {
      if (done) return;
      done = true;
      observer.disconnect();
      main.focus({ preventScroll: true });
      setMessage(document.title);
    }, 3000);
    return () => {
      done = true;
      observer.disconnect();
      window.clearTimeout(fallback);
    };
  }, [pathname]);

  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {message}
    </p>
  );
}

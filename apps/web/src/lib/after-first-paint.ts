/** How long to wait for the browser to report its first paint (a tab opened in the background reports none). */
const MAX_WAIT_MS = 200;

/**
 * Runs `run` once the browser has put the page's first content on screen (its first-contentful-paint
 * entry), or after 200 ms without one. A page the server rendered is worth showing before the app's
 * JavaScript runs: a phone would otherwise spend its first frames evaluating code over a page it
 * already has.
 */
export function afterFirstPaint(run: () => void) {
  let observer: PerformanceObserver | undefined;
  let isDone = false;
  const go = () => {
    if (isDone) return;
    isDone = true;
    observer?.disconnect();
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(go, MAX_WAIT_MS);
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) go();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    // no paint timing in this browser: the timeout runs it
  }
}

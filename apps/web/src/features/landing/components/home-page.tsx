import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { Hero } from './hero';

const loadBelowTheFold = () => import('./below-the-fold');
const BelowTheFold = lazy(() => loadBelowTheFold().then((m) => ({ default: m.BelowTheFold })));

/** Only the first landing of a page load is split; coming back (e.g. with Back) renders all at once. */
let isFirstLanding = true;

/**
 * True from the frame after the first paint. The sections below the hero wait for it and then
 * render in a transition, in small slices: the hero paints sooner and the main thread never blocks
 * for long. This is not a delay (no spinner, no timer to wait out), only the order of work.
 */
function useAfterFirstPaint() {
  const [isAfter, setIsAfter] = useState(() => !isFirstLanding);
  useEffect(() => {
    isFirstLanding = false;
    if (isAfter) return;
    const show = () => {
      void loadBelowTheFold();
      startTransition(() => setIsAfter(true));
    };
    // rAF runs before the next paint and the timeout lands just after it; the fallback covers
    // tabs opened in the background, where rAF waits until the tab is shown.
    let timeout = 0;
    const frame = requestAnimationFrame(() => {
      timeout = window.setTimeout(show, 0);
    });
    const fallback = window.setTimeout(show, 200);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timeout);
      window.clearTimeout(fallback);
    };
  }, [isAfter]);
  return isAfter;
}

/** Holds the footer out of view until the sections arrive, so nothing visible moves. */
const placeholder = <div aria-hidden="true" className="min-h-[200vh]" />;

/**
 * The landing page of docs/product.md#home, with no artificial spinner (docs/product.md#no-artificial-delays). The hero is in
 * this chunk; the rest is its own chunk, requested right after the first paint so that neither its
 * download nor its rendering competes with the hero.
 */
export function HomePage() {
  const isAfterFirstPaint = useAfterFirstPaint();
  return (
    <>
      <title>Spotter · Find your personal trainer</title>
      <Hero />
      {isAfterFirstPaint ? (
        <Suspense fallback={placeholder}>
          <BelowTheFold />
        </Suspense>
      ) : (
        placeholder
      )}
    </>
  );
}

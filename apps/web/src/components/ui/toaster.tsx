import { lazy, Suspense } from 'react';
import { loadSonner, useIsToasterNeeded } from '@/lib/toast';

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Toasts last 4 s, three visible at a time (docs/product.md#messages-and-errors). */
export function Toaster() {
  const isNeeded = useIsToasterNeeded();
  if (!isNeeded) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        position="top-center"
        // Below the sticky header.
        offset={{ top: 80 }}
        mobileOffset={{ top: 72 }}
        duration={4000}
        visibleToasts={3}
        closeButton
        richColors
      />
    </Suspense>
  );
}

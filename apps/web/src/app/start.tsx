import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider';
import { createRouter } from './router';

/**
 * Renders the app into the page (main.tsx loads this after starting the first screen's chunk). The
 * first render is a transition, so React renders it in slices of a few milliseconds and the phone
 * can answer a tap in between, instead of one task of a few hundred (decision 030).
 */
export function start(root: HTMLElement) {
  const router = createRouter();
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    ),
  );
}

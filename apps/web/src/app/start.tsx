import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider';
import { createRouter } from './router';

/** Renders the app into the page (main.tsx loads this after starting the first screen's chunk). */
export function start(root: HTMLElement) {
  const router = createRouter();
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
}

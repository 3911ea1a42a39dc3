import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from '@/components/ui/toaster';

/**
 * Marks the page once the app has rendered or hydrated it (`<html data-app-ready>`): from then on its
 * buttons answer. The end-to-end tests wait for it after opening a page.
 */
function ReadyMark() {
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
  }, []);
  return null;
}

/**
 * The query cache (filled by the server's render when the page came rendered) and the toasts. The
 * server renders the same tree (app/render-page.tsx), so the ids React makes agree on both sides.
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
      <ReadyMark />
    </QueryClientProvider>
  );
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';

type Options = {
  /** The address the component is rendered at. */
  route?: string;
  /** The pattern the component is mounted on (so useParams works). */
  path?: string;
  /** E.g. `{ advanceTimers: vi.advanceTimersByTime }` for tests with fake timers. */
  userEventOptions?: Parameters<typeof userEvent.setup>[0];
};

/**
 * Renders a component the way the app does: inside a query client (no retries, so failures
 * show at once), a router and the real toaster. Other addresses render a marker, so tests can
 * see navigation.
 */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', path = route.split('?')[0], userEventOptions }: Options = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path, element: ui },
      { path: '*', Component: () => <p data-testid="location">navigated</p> },
    ],
    { initialEntries: [route] },
  );
  const user = userEvent.setup(userEventOptions);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, user, router, queryClient };
}

/** A fetch answer the way the server sends it. */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * The toast a person sees with this text (the real toaster, as the app mounts it). Its
 * `data-type` says the kind: success, error, or absent for a plain message.
 */
export async function findToast(text: string | RegExp) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  const message = await within(region).findByText(text);
  const toast = message.closest('[data-sonner-toast]');
  if (!(toast instanceof HTMLElement)) throw new Error(`"${String(text)}" is not inside a toast`);
  return toast;
}

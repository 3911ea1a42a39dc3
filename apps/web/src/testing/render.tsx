import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

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
 * show at once) and a router. Other addresses render a marker, so tests can see navigation.
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
    </QueryClientProvider>,
  );
  return { ...result, user, router, queryClient };
}

/** A fetch answer the way the server sends it. */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

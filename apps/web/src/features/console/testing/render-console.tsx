import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { paths } from '@/lib/paths';
import { ConsoleAuditPage } from '../components/console-audit-page';
import { ConsoleCertificatesPage } from '../components/console-certificates-page';
import { ConsoleBookingsPage } from '../components/console-bookings-page';
import { ConsoleDisputesPage } from '../components/console-disputes-page';
import { ConsoleLayout } from '../components/console-layout';
import { ConsoleLoginPage } from '../components/console-login-page';
import { ConsoleOverviewPage } from '../components/console-overview-page';
import { ConsolePeoplePage } from '../components/console-people-page';
import { ConsolePersonPage } from '../components/console-person-page';
import { ConsoleReportsPage } from '../components/console-reports-page';
import { ConsoleWelcomePage } from '../components/console-welcome-page';

/** The console's routes as the app mounts them (app/router.tsx), without the lazy loading, at `url`. */
export function renderConsole(url: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      {
        path: paths.console.audit.path,
        element: <ConsoleLayout />,
        children: [
          { index: true, Component: ConsoleAuditPage },
          { path: paths.console.welcome.path, Component: ConsoleWelcomePage },
          { path: paths.console.login.path, Component: ConsoleLoginPage },
          { path: paths.console.overview.path, Component: ConsoleOverviewPage },
          { path: paths.console.people.path, Component: ConsolePeoplePage },
          { path: paths.console.person.path, Component: ConsolePersonPage },
          { path: paths.console.reports.path, Component: ConsoleReportsPage },
          { path: paths.console.certificates.path, Component: ConsoleCertificatesPage },
          { path: paths.console.bookings.path, Component: ConsoleBookingsPage },
          { path: paths.console.disputes.path, Component: ConsoleDisputesPage },
        ],
      },
      { path: '*', Component: () => <p data-testid="location">elsewhere</p> },
    ],
    { initialEntries: [url] },
  );
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, user, router };
}

/** What a request carried: its method, address, Authorization header and JSON body. */
export function requestOf(call: unknown[]) {
  const [input, init = {}] = call as [string, RequestInit | undefined];
  const headers = new Headers(init.headers);
  return {
    method: init.method ?? 'GET',
    url: input,
    authorization: headers.get('authorization'),
    body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  };
}

/** Captures the files the page hands to the browser as downloads. */
export function captureDownloads() {
  const files: Array<{ name: string; blob: Blob }> = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${next++}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  };
  return {
    files,
    restore: () => {
      HTMLAnchorElement.prototype.click = click;
    },
  };
}

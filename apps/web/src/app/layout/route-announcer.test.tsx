import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createMemoryRouter, Link, Outlet, RouterProvider, useSearchParams } from 'react-router';
import { RouteAnnouncer } from './route-announcer';

function Layout() {
  return (
    <>
      <RouteAnnouncer />
      <nav>
        <Link to="/a">Page A</Link>
        <Link to="/b">Page B</Link>
        <Link to="/a?sort=price">Sort A</Link>
        <Link to="/late">Late</Link>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

function PageA() {
  const [params] = useSearchParams();
  return <h1>Page A heading {params.get('sort') ?? ''}</h1>;
}

/** A page whose heading comes after its data. */
function LatePage() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setReady(true), 20);
    return () => window.clearTimeout(id);
  }, []);
  return ready ? <h1>Late heading</h1> : <p>Loading…</p>;
}

const renderRoutes = () =>
  render(
    <RouterProvider
      router={createMemoryRouter(
        [
          {
            element: <Layout />,
            children: [
              { path: '/a', element: <PageA /> },
              { path: '/b', element: <h1>Page B heading</h1> },
              { path: '/late', element: <LatePage /> },
            ],
          },
        ],
        { initialEntries: ['/a'] },
      )}
    />,
  );

describe('RouteAnnouncer', () => {
  it('leaves the first page alone, then moves focus to the new page heading and announces it', async () => {
    const user = userEvent.setup();
    renderRoutes();
    expect(screen.getByRole('heading', { name: /Page A heading/ })).not.toHaveFocus();
    expect(screen.getByTestId('route-announcer')).toHaveTextContent('');

    await user.click(screen.getByRole('link', { name: 'Page B' }));
    expect(screen.getByRole('heading', { name: 'Page B heading' })).toHaveFocus();
    expect(screen.getByTestId('route-announcer')).toHaveTextContent('Page B heading');
  });

  it('keeps the focus where it is when only the search changes', async () => {
    const user = userEvent.setup();
    renderRoutes();
    const link = screen.getByRole('link', { name: 'Sort A' });
    await user.click(link);
    expect(await screen.findByRole('heading', { name: /price/ })).toBeInTheDocument();
    expect(link).toHaveFocus();
  });

  it('waits for the heading of a page that is still loading', async () => {
    const user = userEvent.setup();
    renderRoutes();
    await user.click(screen.getByRole('link', { name: 'Late' }));
    const heading = await screen.findByRole('heading', { name: 'Late heading' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByTestId('route-announcer')).toHaveTextContent('Late heading');
  });
});

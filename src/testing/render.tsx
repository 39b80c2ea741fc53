import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/**
 * Renders `element` at `path` (matched by `routePath`) inside the console's providers and a
 * memory router; extra routes let a test see where navigation went.
 */
export function renderRoute(
  element: ReactElement,
  {
    path = '/',
    routePath = '*',
    extraRoutes = [],
    errorElement,
  }: {
    path?: string;
    routePath?: string;
    extraRoutes?: RouteObject[];
    /** What the route shows when the element throws (the app's error page). */
    errorElement?: ReactElement;
  } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const router = createMemoryRouter([{ path: routePath, element, errorElement }, ...extraRoutes], {
    initialEntries: [path],
  });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, user, router, queryClient };
}

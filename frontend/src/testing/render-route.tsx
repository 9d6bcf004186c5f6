import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/router';
import { createQueryClient } from '@/lib/react-query';

/** Renders the whole app (layout, providers, routes) at a URL, as a visitor would land on it. */
export function renderRoute(url: string) {
  const queryClient = createQueryClient({ queries: { retry: false, staleTime: Infinity } });
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [url] });
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router, queryClient };
}

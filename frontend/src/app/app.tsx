import { hydrate, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AgeConfirmedOnServer } from '@/features/age-gate/components/age-gate';
import { seedSession } from '@/features/auth/api/session-cache';
import { type Bootstrap, readBootstrap } from '@/lib/bootstrap';
import { createQueryClient } from '@/lib/react-query';
import { trackServerHead } from '@/lib/server-head';
import { siteQueryOptions } from '@/lib/site';
import { AppProvider } from './provider';
import { createAppRouter, createRoutes } from './router';

/** What the app starts with: its query cache and router, and what the server's page said. */
export interface AppStart {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
  bootstrap: Bootstrap;
}

/** The query cache seeded with what the server's page already says (who is signed in, the site, its reads). */
function startQueries(bootstrap: Bootstrap): QueryClient {
  const client = createQueryClient();
  if (bootstrap.rendered) hydrate(client, bootstrap.rendered.queries);
  if (bootstrap.site) client.setQueryData(siteQueryOptions().queryKey, bootstrap.site);
  seedSession(client, bootstrap);
  return client;
}

/** The app on a page the browser built alone (no server rendering: Vite's dev server, a page not rendered). */
function startApp(bootstrap: Bootstrap = readBootstrap()): AppStart {
  const queryClient = startQueries(bootstrap);
  const router = createAppRouter(queryClient);
  trackServerHead(router);
  return { queryClient, router, bootstrap };
}

/**
 * The app over the server's HTML (docs/web-client.md › "Server rendering"): the lazily loaded route of the
 * address is fetched first and the router starts from the server's route data, so that the first render is the
 * server's, element for element, and React hydrates it instead of drawing it again.
 */
export async function startHydration(bootstrap: Bootstrap & Required<Pick<Bootstrap, 'rendered'>>): Promise<AppStart> {
  const queryClient = startQueries(bootstrap);
  const routes = createRoutes(queryClient);
  await resolveLazyRoutes(routes, window.location.pathname);
  const router = createAppRouter(queryClient, routes, bootstrap.rendered.router);
  trackServerHead(router);
  return { queryClient, router, bootstrap };
}

/** Loads the matched routes' lazy modules into the route objects, as the server's static handler did. */
export async function resolveLazyRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const lazy = (matchRoutes(routes, pathname) ?? []).filter((match) => typeof match.route.lazy === 'function');
  await Promise.all(
    lazy.map(async ({ route }) => {
      const module = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );
}

export function App({ start }: { start?: AppStart }) {
  const [{ queryClient, router, bootstrap }] = useState(() => start ?? startApp());
  return (
    <AgeConfirmedOnServer.Provider value={bootstrap.ageConfirmed === true}>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </AgeConfirmedOnServer.Provider>
  );
}

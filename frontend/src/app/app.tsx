import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { seedSession } from '@/features/auth/api/session-cache';
import { readBootstrap } from '@/lib/bootstrap';
import { createQueryClient } from '@/lib/react-query';
import { trackServerHead } from '@/lib/server-head';
import { siteQueryOptions } from '@/lib/site';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // What the server's page already says (who is signed in, the site's settings) is not asked again.
    const bootstrap = readBootstrap();
    if (bootstrap.site) client.setQueryData(siteQueryOptions().queryKey, bootstrap.site);
    seedSession(client, bootstrap);
    return client;
  });
  const [router] = useState(() => {
    const created = createAppRouter(queryClient);
    trackServerHead(created);
    return created;
  });
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

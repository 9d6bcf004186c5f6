import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './layout';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { RegisterRoute } from './routes/register';
import { RouteError } from './routes/route-error';

// The watch page (player, hls.js) is a chunk of its own, fetched when a video is opened.
const WatchRoute = lazy(() => import('./routes/watch'));

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomeRoute /> },
          {
            path: 'video/:id',
            element: (
              <Suspense fallback={<div className="watch" aria-busy="true" aria-label="Loading the video" />}>
                <WatchRoute />
              </Suspense>
            ),
          },
          { path: 'login', element: <LoginRoute /> },
          { path: 'register', element: <RegisterRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);

import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './layout';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { WatchPlaceholderRoute } from './routes/watch-placeholder';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomeRoute /> },
          { path: 'video/:id', element: <WatchPlaceholderRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);

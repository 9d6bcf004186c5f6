import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, type HydrationState, type RouteObject } from 'react-router';
import { prefetchWatch } from '@/features/watch/api/prefetch-watch';
import { Layout } from './layout';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { RegisterRoute } from './routes/register';
import { RouteError } from './routes/route-error';

// The watch page (player, hls.js) is a chunk of its own, fetched when a video is opened.
export const loadWatchRoute = () => import('./routes/watch');
const WatchRoute = lazy(loadWatchRoute);

// Pages that most visitors never open are chunks of their own too. Each module exports `Component`
// (React Router's lazy-route convention), so the router fetches it before rendering the route.
const browse = () => import('./routes/browse');
const lists = () => import('./routes/lists');
const legal = () => import('./routes/legal');
const admin = () => import('./routes/admin');
// The embeddable player, framed by other sites: the player's code (shared with the watch page) and no layout.
const embed = () => import('./routes/embed');

const VIDEO_ID = /^[1-9]\d{0,9}$/;
const isVideoId = (id: string | undefined): id is string => !!id && VIDEO_ID.test(id) && Number(id) <= 2_147_483_647;

/** The app's routes; `queryClient` lets the watch route start its reads before its code has arrived. */
export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    // Outside the layout: no header, footer or navigation in another site's frame.
    path: 'embed/:id',
    errorElement: <RouteError />,
    hydrateFallbackElement: <div aria-busy="true" aria-label="Loading the video" />,
    loader: ({ params }) => {
      if (isVideoId(params.id)) prefetchWatch(queryClient, Number(params.id));
      return null;
    },
    lazy: async () => ({ Component: (await embed()).EmbedRoute }),
  },
  {
    element: <Layout />,
    errorElement: <RouteError />,
    // Opening a lazily loaded page directly (a reload, a shared link) waits for its chunk; this shows meanwhile.
    hydrateFallbackElement: <div className="app" aria-busy="true" aria-label="Loading" />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomeRoute /> },
          {
            path: 'video/:id',
            loader: ({ params }) => {
              if (isVideoId(params.id)) prefetchWatch(queryClient, Number(params.id));
              return null;
            },
            element: (
              <Suspense fallback={<div className="watch" aria-busy="true" aria-label="Loading the video" />}>
                <WatchRoute />
              </Suspense>
            ),
          },
          { path: 'login', element: <LoginRoute /> },
          { path: 'register', element: <RegisterRoute /> },

          { path: 'search', lazy: async () => ({ Component: (await browse()).SearchRoute }) },
          { path: 'categories', lazy: async () => ({ Component: (await browse()).CategoriesRoute }) },
          { path: 'categories/:id', lazy: async () => ({ Component: (await browse()).CategoryRoute }) },
          { path: 'performers', lazy: async () => ({ Component: (await browse()).PerformersRoute }) },
          { path: 'performers/:id', lazy: async () => ({ Component: (await browse()).PerformerRoute }) },

          { path: 'me/bookmarks', lazy: async () => ({ Component: (await lists()).BookmarksRoute }) },
          { path: 'me/watch-later', lazy: async () => ({ Component: (await lists()).WatchLaterRoute }) },
          { path: 'me/history', lazy: async () => ({ Component: (await lists()).HistoryRoute }) },
          { path: 'me/likes', lazy: async () => ({ Component: (await lists()).LikesRoute }) },
          { path: 'me/following', lazy: async () => ({ Component: (await lists()).FollowingRoute }) },
          { path: 'me/following/videos', lazy: async () => ({ Component: (await lists()).FollowedVideosRoute }) },
          { path: 'me/account', lazy: async () => ({ Component: (await lists()).AccountRoute }) },
          { path: 'playlists', lazy: async () => ({ Component: (await lists()).PlaylistsRoute }) },
          { path: 'playlists/:id', lazy: async () => ({ Component: (await lists()).PlaylistRoute }) },

          { path: 'terms', lazy: async () => ({ Component: (await legal()).TermsRoute }) },
          { path: '2257', lazy: async () => ({ Component: (await legal()).RecordsRoute }) },
          { path: 'content-removal', lazy: async () => ({ Component: (await legal()).ContentRemovalRoute }) },

          {
            path: 'admin',
            lazy: async () => ({ Component: (await admin()).AdminLayoutRoute }),
            children: [
              { index: true, lazy: async () => ({ Component: (await admin()).AdminDashboardRoute }) },
              { path: 'videos', lazy: async () => ({ Component: (await admin()).AdminVideosRoute }) },
              { path: 'videos/:id', lazy: async () => ({ Component: (await admin()).AdminEditVideoRoute }) },
              { path: 'upload', lazy: async () => ({ Component: (await admin()).AdminUploadRoute }) },
              { path: 'jobs', lazy: async () => ({ Component: (await admin()).AdminJobsRoute }) },
              { path: 'removals', lazy: async () => ({ Component: (await admin()).AdminRemovalsRoute }) },
              { path: 'taxonomy', lazy: async () => ({ Component: (await admin()).AdminTaxonomyRoute }) },
            ],
          },

          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

/** The browser's router; over a server-rendered page, with the routes and route data the server rendered. */
export const createAppRouter = (queryClient: QueryClient, routes = createRoutes(queryClient), hydrationData?: HydrationState) =>
  createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);

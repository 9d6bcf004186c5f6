import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, type HydrationState, type RouteObject } from 'react-router';
import { prefetchWatch } from '@/features/watch/api/prefetch-watch';
import { isVideoId } from '@/lib/video-id';
import { PAGE_TITLES } from '@/lib/page-titles';
import type { HeadName, RouteHandle } from './head/route-handle';
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
// A guest's or a member's hidden topics (docs/decisions.md › "Hidden topics").
const hiddenTopics = () => import('./routes/hidden-topics');


/** Pages search engines are kept out of, with the site's name as their title in the document the server sends. */
const NOT_INDEXED: RouteHandle = { head: { noindex: true } };
/** A page of the browse module, drawn on the server too. */
const browsed = (head: HeadName): RouteHandle => ({ head, draws: ['src/app/routes/browse.tsx'] });

/** The app's routes; `queryClient` lets the watch route start its reads before its code has arrived. */
export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    // Outside the layout: no header, footer or navigation in another site's frame.
    path: 'embed/:id',
    handle: { head: 'embed' } satisfies RouteHandle,
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
          { index: true, element: <HomeRoute />, handle: { head: 'home', draws: [] } satisfies RouteHandle },
          {
            path: 'video/:id',
            // Not hls.js: named in the head, its download and evaluation competed with what the page paints and
            // hydrates with (docs/web-client.md › "First frame").
            handle: { head: 'watch', draws: ['src/app/routes/watch.tsx'] } satisfies RouteHandle,
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
          { path: 'login', element: <LoginRoute />, handle: { head: { title: PAGE_TITLES.login, noindex: true } } satisfies RouteHandle },
          { path: 'register', element: <RegisterRoute />, handle: { head: { title: PAGE_TITLES.register, noindex: true } } satisfies RouteHandle },

          { path: 'search', handle: browsed('search'), lazy: async () => ({ Component: (await browse()).SearchRoute }) },
          { path: 'categories', handle: browsed('categories'), lazy: async () => ({ Component: (await browse()).CategoriesRoute }) },
          { path: 'categories/:id', handle: browsed('category'), lazy: async () => ({ Component: (await browse()).CategoryRoute }) },
          { path: 'performers', handle: browsed('performers'), lazy: async () => ({ Component: (await browse()).PerformersRoute }) },
          { path: 'performers/:id', handle: browsed('performer'), lazy: async () => ({ Component: (await browse()).PerformerRoute }) },
          { path: 'tags', handle: browsed('tags'), lazy: async () => ({ Component: (await browse()).TagsRoute }) },
          { path: 'tags/:id', handle: browsed('tag'), lazy: async () => ({ Component: (await browse()).TagRoute }) },

          // A member's own pages: never indexed (nor drawn on the server).
          { path: 'me/bookmarks', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).BookmarksRoute }) },
          { path: 'me/watch-later', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).WatchLaterRoute }) },
          { path: 'me/history', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).HistoryRoute }) },
          { path: 'me/likes', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).LikesRoute }) },
          { path: 'me/following', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).FollowingRoute }) },
          { path: 'me/following/videos', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).FollowedVideosRoute }) },
          { path: 'me/account', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).AccountRoute }) },
          // Guests' too: they hide topics in their browser.
          {
            path: 'me/hidden',
            handle: { head: { title: PAGE_TITLES.hiddenTopics, noindex: true } } satisfies RouteHandle,
            lazy: async () => ({ Component: (await hiddenTopics()).HiddenTopicsRoute }),
          },
          { path: 'playlists', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).PlaylistsRoute }) },
          { path: 'playlists/:id', handle: NOT_INDEXED, lazy: async () => ({ Component: (await lists()).PlaylistRoute }) },

          { path: 'terms', handle: { head: { title: PAGE_TITLES.terms } } satisfies RouteHandle, lazy: async () => ({ Component: (await legal()).TermsRoute }) },
          { path: '2257', handle: { head: { title: PAGE_TITLES.records } } satisfies RouteHandle, lazy: async () => ({ Component: (await legal()).RecordsRoute }) },
          { path: 'content-removal', handle: { head: { title: PAGE_TITLES.contentRemoval } } satisfies RouteHandle, lazy: async () => ({ Component: (await legal()).ContentRemovalRoute }) },

          {
            path: 'admin',
            handle: NOT_INDEXED,
            lazy: async () => ({ Component: (await admin()).AdminLayoutRoute }),
            children: [
              { index: true, lazy: async () => ({ Component: (await admin()).AdminDashboardRoute }) },
              { path: 'videos', lazy: async () => ({ Component: (await admin()).AdminVideosRoute }) },
              { path: 'videos/:id', lazy: async () => ({ Component: (await admin()).AdminEditVideoRoute }) },
              { path: 'upload', lazy: async () => ({ Component: (await admin()).AdminUploadRoute }) },
              { path: 'jobs', lazy: async () => ({ Component: (await admin()).AdminJobsRoute }) },
              { path: 'removals', lazy: async () => ({ Component: (await admin()).AdminRemovalsRoute }) },
              { path: 'taxonomy', lazy: async () => ({ Component: (await admin()).AdminTaxonomyRoute }) },
              { path: 'ads', lazy: async () => ({ Component: (await admin()).AdminAdsRoute }) },
              { path: 'ads/:id', lazy: async () => ({ Component: (await admin()).AdminAdZoneRoute }) },
            ],
          },

          { path: '*', element: <NotFoundRoute />, handle: { head: { title: PAGE_TITLES.pageNotFound, noindex: true, missing: true } } satisfies RouteHandle },
        ],
      },
    ],
  },
];

/** The browser's router; over a server-rendered page, with the routes and route data the server rendered. */
export const createAppRouter = (queryClient: QueryClient, routes = createRoutes(queryClient), hydrationData?: HydrationState) =>
  createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);

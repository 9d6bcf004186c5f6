import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

export const getSecureUrl = (streamPath: string, signal?: AbortSignal) =>
  ok(api.GET('/api/video/secure', { params: { query: { path: streamPath } }, signal }));

export const secureUrlQueryOptions = (streamPath: string) =>
  queryOptions({
    queryKey: ['watch', 'secure-url', streamPath],
    queryFn: ({ signal }) => getSecureUrl(streamPath, signal),
    // A new URL restarts the stream, so it is fetched again only when the player asks (the signature expired),
    // and not kept long once the page is left: coming back later gets a fresh one. The few seconds let the
    // router's prefetch (prefetch-watch.ts) hand its answer to the player that mounts after it.
    staleTime: Infinity,
    gcTime: 10_000,
  });

export const useSecureUrl = (streamPath: string | undefined) =>
  useQuery({ ...secureUrlQueryOptions(streamPath ?? ''), enabled: Boolean(streamPath) });

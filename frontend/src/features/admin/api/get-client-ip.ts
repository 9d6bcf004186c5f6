import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

/** GET /api/get-client-ip: the caller's address as the server's proxy trust sees it. */
export const getClientIp = (signal?: AbortSignal) => ok(api.GET('/api/get-client-ip', { signal }));

export const clientIpQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'client-ip'],
    queryFn: ({ signal }) => getClientIp(signal),
    // The address does not change while the panel is open; a failure shows at once rather than after retries.
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useClientIp = () => useQuery(clientIpQueryOptions());

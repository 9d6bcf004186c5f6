import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError } from './api/client';

export const queryDefaults = {
  queries: {
    staleTime: 30_000,
    refetchOnWindowFocus: false,
    // A 4xx will answer the same again; only network failures and 5xx are worth another try.
    retry: (failureCount, error) =>
      !(error instanceof ApiError && error.statusCode < 500) && failureCount < 2,
  },
} satisfies DefaultOptions;

export function createQueryClient(defaultOptions: DefaultOptions = queryDefaults): QueryClient {
  return new QueryClient({ defaultOptions });
}

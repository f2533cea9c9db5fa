import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Client errors (4xx) will not get better by asking again; network blips and 5xx might. */
const retryable = (failureCount: number, error: unknown) =>
  failureCount < 3 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: retryable, refetchOnWindowFocus: false, staleTime: 10_000 },
      // Never re-send an upload by ourselves: effects cost time and a retry would duplicate gallery items.
      mutations: { retry: false },
    },
  });

import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Tries of a read while the service answers 503 (about three minutes with the delays below). */
const UNAVAILABLE_RETRIES = 8;

/** The longest wait between two tries of a read. */
const MAX_RETRY_DELAY_MS = 30_000;

/** A 503: the service or its database is down for a while; reads wait for it to come back. */
export function isServiceUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503;
}

/**
 * Client errors (4xx) are answers, not glitches: retry only network and server failures, and a
 * 503 for longer. Only reads come here: mutations are never retried (a create would be sent twice).
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isServiceUnavailable(error)) return failureCount < UNAVAILABLE_RETRIES;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** The server's Retry-After when it gave one, else doubling from one second; at most 30 s. */
function retryDelay(failureCount: number, error: unknown): number {
  const asked = error instanceof ApiError ? error.retryAfterSeconds : null;
  const delay = asked !== null ? asked * 1000 : 1000 * 2 ** failureCount;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, retryDelay, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { reviewQueueResponseSchema } from '../../../contract/reviews.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReviewQueueParams } from '../review-params.ts';

export const REVIEW_PAGE_SIZE = 25;

function fetchQueue(
  queue: ReviewQueueParams,
  cursor: string | undefined,
  limit: number,
  signal: AbortSignal,
) {
  return apiRequest('/api/v2/reviews', {
    query: { ...queue, limit, cursor },
    schema: reviewQueueResponseSchema,
    signal,
  });
}

/** Every review-queue query under one key, so a recorded decision can invalidate them all. */
export const reviewQueries = {
  all: () => ['reviews'] as const,
  /** The Reviews page: pages of the queue, "Load more" appends the next. */
  queue: (queue: ReviewQueueParams) =>
    infiniteQueryOptions({
      queryKey: [...reviewQueries.all(), 'queue', queue] as const,
      queryFn: ({ pageParam, signal }) => fetchQueue(queue, pageParam, REVIEW_PAGE_SIZE, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  /** The item after `after` in the queue (and the queue's counts), for the entity page. */
  next: (queue: ReviewQueueParams, after: string) =>
    queryOptions({
      queryKey: [...reviewQueries.all(), 'next', queue, after] as const,
      queryFn: ({ signal }) => fetchQueue(queue, after, 1, signal),
    }),
};

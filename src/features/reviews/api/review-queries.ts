import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { reviewQueueResponseSchema, takeNextResponseSchema } from '../../../../contract/reviews.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { assigneeQueryOf, type ReviewQueueParams } from '../review-params.ts';

export const REVIEW_PAGE_SIZE = 25;

function fetchQueue(
  queue: ReviewQueueParams,
  cursor: string | undefined,
  limit: number,
  signal: AbortSignal,
) {
  return apiRequest('/api/v2/reviews', {
    query: { ...queue, assignee: assigneeQueryOf(queue), limit, cursor },
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
  /** Whether anything is assigned to the caller (any window), which picks the page's first tab. */
  hasMine: () =>
    queryOptions({
      queryKey: [...reviewQueries.all(), 'has-mine'] as const,
      queryFn: async ({ signal }) => {
        const dated = await fetchQueue(
          { due: 'all', type: 'all', assignee: 'me' },
          undefined,
          1,
          signal,
        );
        return dated.data.length > 0 || dated.counts.undated > 0;
      },
    }),
};

/** "Take next unassigned": the soonest-due unassigned entity of the queue, now the caller's. */
export function useTakeNext() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ assignee: _everyone, ...queue }: ReviewQueueParams) =>
      apiRequest('/api/v2/reviews/take-next', {
        method: 'POST',
        body: queue,
        schema: takeNextResponseSchema,
      }).then((envelope) => envelope.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewQueries.all() }),
  });
}

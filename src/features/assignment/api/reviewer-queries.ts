import { queryOptions } from '@tanstack/react-query';
import { reviewerListResponseSchema } from '../../../../contract/assignment.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Who can be assigned (the server's enabled reviewer accounts), for every assign control. */
export const reviewerQueries = {
  all: () => ['reviewers'] as const,
  list: () =>
    queryOptions({
      queryKey: reviewerQueries.all(),
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/reviewers', { schema: reviewerListResponseSchema, signal }).then(
          (envelope) => envelope.data,
        ),
      // Accounts change only by an operator's command.
      staleTime: 5 * 60_000,
    }),
};

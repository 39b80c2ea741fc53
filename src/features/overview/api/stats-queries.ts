import { queryOptions } from '@tanstack/react-query';
import { statsResponseSchema } from '../../../../contract/stats.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The overview's counts, `GET /api/v2/stats`. */
export const statsQueries = {
  all: () => ['stats'] as const,
  current: () =>
    queryOptions({
      queryKey: statsQueries.all(),
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/stats', { schema: statsResponseSchema, signal }).then(
          (envelope) => envelope.data,
        ),
    }),
};

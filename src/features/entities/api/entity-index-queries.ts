import { queryOptions } from '@tanstack/react-query';
import {
  entityIndexResponseSchema,
  type EntityIndexFilter,
} from '../../../../contract/entity-index.ts';
import { apiDownload, apiRequest } from '../../../lib/api-client.ts';

export interface EntityIndexView extends EntityIndexFilter {
  limit: number;
  cursor?: string;
}

export const entityIndexQueries = {
  all: () => ['entities', 'index'] as const,
  page: (view: EntityIndexView) =>
    queryOptions({
      queryKey: [...entityIndexQueries.all(), view] as const,
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/entity-index', {
          query: { ...view },
          schema: entityIndexResponseSchema,
          signal,
        }),
    }),
};

/** Every entity the filter matches, as CSV (the server streams all of it). */
export function downloadEntityIndexCsv(
  filter: EntityIndexFilter,
  options: { signal?: AbortSignal; onProgress?: (loaded: number) => void } = {},
): Promise<Blob> {
  return apiDownload('/api/v2/entity-index', {
    query: { ...filter, format: 'csv' },
    accept: 'text/csv',
    signal: options.signal,
    onProgress: options.onProgress,
  });
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { forEachWithConcurrency } from '../api/for-each-with-concurrency.ts';
import { DETAIL_CONCURRENCY } from './use-entity-details.ts';

/** A document count that arrived, or `null` when the entity's documents could not be listed. */
export type DocumentCount = number | null;

/**
 * The list sends documents for legal entities only (the interface's `supportingDocuments` flag);
 * the people's counts are read from their document lists, a few at a time, through the shared cache.
 */
export function useDocumentCounts(ids: readonly string[]): Record<string, DocumentCount> {
  const queryClient = useQueryClient();
  const [counts, setCounts] = useState<Record<string, DocumentCount>>({});
  const idsKey = ids.join('\n');

  useEffect(() => {
    const controller = new AbortController();
    const settle = (id: string, count: DocumentCount) => {
      if (!controller.signal.aborted) setCounts((previous) => ({ ...previous, [id]: count }));
    };
    void forEachWithConcurrency(
      idsKey === '' ? [] : idsKey.split('\n'),
      DETAIL_CONCURRENCY,
      async (id) => {
        try {
          settle(id, (await queryClient.query(entityQueries.documents(id))).length);
        } catch {
          settle(id, null);
        }
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [idsKey, queryClient]);

  return counts;
}

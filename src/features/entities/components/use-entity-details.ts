import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Entity } from '../../../../contract/entities.ts';
import { entityQueries, type EntityCollection } from '../../../lib/entity-queries.ts';
import { forEachWithConcurrency } from '../api/for-each-with-concurrency.ts';

/** Details requested at once: enough to fill the screen quickly without flooding the server. */
export const DETAIL_CONCURRENCY = 4;

export type DetailResult =
  { status: 'success'; entity: Entity } | { status: 'error'; message: string };

/**
 * Loads each entity of one collection through the shared query cache, at most DETAIL_CONCURRENCY at a
 * time, and returns what has arrived so far. Mount it with a `key` per search so results start empty.
 */
export function useEntityDetails(
  collection: EntityCollection,
  ids: readonly string[],
): Record<string, DetailResult> {
  const queryClient = useQueryClient();
  const [results, setResults] = useState<Record<string, DetailResult>>({});
  const idsKey = ids.join('\n');

  useEffect(() => {
    const controller = new AbortController();
    const settle = (id: string, result: DetailResult) => {
      if (!controller.signal.aborted) setResults((previous) => ({ ...previous, [id]: result }));
    };
    // Ids already loaded come straight from the cache; in-flight ones are shared, not repeated.
    void forEachWithConcurrency(
      idsKey === '' ? [] : idsKey.split('\n'),
      DETAIL_CONCURRENCY,
      async (id) => {
        try {
          settle(id, {
            status: 'success',
            entity: await (collection === 'legal-entities'
              ? queryClient.query(entityQueries.legalEntity(id))
              : queryClient.query(entityQueries.naturalPerson(id))),
          });
        } catch (error) {
          settle(id, {
            status: 'error',
            message: error instanceof Error ? error.message : 'The entity could not be loaded.',
          });
        }
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [idsKey, collection, queryClient]);

  return results;
}

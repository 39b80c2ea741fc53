import type { EntityListQuery } from '../../../contract/entities.ts';
import type { Db } from '../../db/database.ts';
import { entitiesRepository } from '../repository.ts';
import type { ListPositions } from './list-positions.ts';
import { buildListRecords, listJsonOf, relationKeysOf } from './list-records.ts';
import { readModelRepository } from './repository.ts';

const KIND_OF_FILTER = {
  all: undefined,
  'legal-entities': 'legal',
  'natural-persons': 'person',
} as const;

type ListPositionsAtVersion = ReturnType<ListPositions['at']>;

const EMPTY_ARRAY = Buffer.from('[]');

/**
 * The JSON array of one list page, as bytes: where it starts and ends found from the nearest known
 * position when `positions` knows one, then its stored list records put together by the database.
 * A page with entities without a record (a change dropped it) is built here, those entities from
 * the tables.
 */
export async function listPage(
  db: Db,
  query: EntityListQuery,
  positions?: ListPositionsAtVersion,
): Promise<Buffer> {
  const repository = readModelRepository(db);
  const kind = KIND_OF_FILTER[query.type];
  const { descending, limit } = query;
  const knownFirst = positions?.exactly(query.start);
  const knownNext = positions?.exactly(query.start + limit);
  // A page read since the last change knows both ends; otherwise they are found from nearby.
  const nearest = positions?.nearest(query.start);
  const { first, next } =
    knownFirst && knownNext
      ? { first: knownFirst, next: knownNext }
      : await repository.listPageBounds({
          kind,
          descending,
          limit,
          offset: query.start - (nearest?.position ?? 0),
          from: nearest?.key,
        });
  if (!first) return EMPTY_ARRAY;
  positions?.remember(query.start, first);
  if (next) positions?.remember(query.start + limit, next);

  const joined = await repository.listPageJson(
    { kind, descending, limit, from: first, next },
    relationKeysOf(query),
  );
  if (joined.json !== null && joined.stored === joined.entries) {
    return joined.json;
  }

  const page = { kind, descending, limit, offset: 0, from: first };
  const rows = await repository.listPageRecords(page);
  const missing = rows.filter((row) => row.head === null || row.tail === null).map((row) => row.id);
  const built = new Map(
    (await buildListRecords(db, await entitiesRepository(db).entitiesByIds(missing))).map(
      (record) => [record.entity_id, record],
    ),
  );
  const parts = rows.map((row) => {
    const { head, verifications, documents, tail } = row;
    const record =
      head === null || tail === null ? built.get(row.id) : { head, verifications, documents, tail };
    if (!record) throw new Error(`Entity ${row.id} did not load.`);
    return listJsonOf(record, query);
  });
  return Buffer.from(`[${parts.join(',')}]`);
}

/** The positions store's view for this list query's order. */
export function listOrderOf(query: EntityListQuery): string {
  return `${query.type} ${query.descending ? 'desc' : 'asc'}`;
}

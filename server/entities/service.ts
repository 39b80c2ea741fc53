import { phoneQuery } from './phone-search.ts';
import type {
  EntityListQuery,
  LegalEntity,
  LegalEntitySearchQuery,
  NaturalPerson,
  NaturalPersonSearchQuery,
} from '../../contract/entities.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { assembleEntities, type Relations } from './assemble.ts';
import type { ListPositions } from './list-positions.ts';
import { buildListRecords, listJsonOf, relationKeysOf } from './list-records.ts';
import {
  entitiesRepository,
  lateNameCount,
  type NameKind,
  renumberNameOrder,
} from './repository.ts';

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
export async function listEntitiesJson(
  db: Db,
  query: EntityListQuery,
  positions?: ListPositionsAtVersion,
): Promise<Buffer> {
  const repository = entitiesRepository(db);
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
    (await buildListRecords(db, await repository.entitiesByIds(missing))).map((record) => [
      record.entity_id,
      record,
    ]),
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

const FULL_DETAIL: Relations = {
  verifications: true,
  legalEntityDocuments: true,
  personDetail: true,
};

export async function getLegalEntity(db: Db, id: string): Promise<LegalEntity> {
  const row = await entitiesRepository(db).findEntity(id);
  if (row?.kind !== 'legal') throw new ApiError(404, `No legal entity has the id ${id}.`);
  const [entity] = await assembleEntities(db, [row], FULL_DETAIL);
  if (entity?.type !== 'Legal Entity') throw new Error(`Entity ${id} did not load.`);
  return entity;
}

export async function getNaturalPerson(db: Db, id: string): Promise<NaturalPerson> {
  const row = await entitiesRepository(db).findEntity(id);
  if (row?.kind !== 'person') throw new ApiError(404, `No natural person has the id ${id}.`);
  const [entity] = await assembleEntities(db, [row], FULL_DETAIL);
  if (entity?.type !== 'Natural Person') throw new Error(`Entity ${id} did not load.`);
  return entity;
}

/** Late names of a kind past which a start numbers them all again: each costs every search a test. */
const MAX_LATE_NAMES = 1_000;

/**
 * At start: renumbers a kind's names in list order when too many arrived out of it (two
 * processes creating at once, clocks that step back); returns how many were late.
 */
export async function keepNamesInListOrder(
  db: Db,
  kind: NameKind,
  maxLate = MAX_LATE_NAMES,
): Promise<{ late: number; renumbered: boolean }> {
  const late = await lateNameCount(db, kind);
  if (late <= maxLate) return { late, renumbered: false };
  await db.transaction().execute((trx) => renumberNameOrder(trx, kind));
  return { late, renumbered: true };
}

/** DUNS are stored as 9 digits, so `4567890` is compared as `004567890`. */
export function searchLegalEntities(db: Db, query: LegalEntitySearchQuery): Promise<string[]> {
  return entitiesRepository(db).searchLegalEntities({
    companyNameContains: query.companyName,
    registrationNumber: query.registrationNumber,
    glei: query.glei,
    externalId: query.externalID,
    duns: query.duns?.padStart(9, '0'),
    phone: query.phone === undefined ? undefined : phoneQuery(query.phone),
    primaryContactEmail: query.email,
  });
}

export function searchNaturalPersons(db: Db, query: NaturalPersonSearchQuery): Promise<string[]> {
  return entitiesRepository(db).searchNaturalPersons({
    firstNameContains: query.firstName,
    lastNameContains: query.lastName,
    email: query.email,
    phone: query.phone === undefined ? undefined : phoneQuery(query.phone),
    externalId: query.externalID,
  });
}

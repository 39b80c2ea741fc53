import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import { PRIMARY_CONTACT } from '../../../contract/entities.ts';
import { foldForSearch, normalisedRegistrationNumber } from '../../../contract/search-text.ts';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { prepared, takeFirstPrepared } from '../../db/prepared-statements.ts';
import type { Database, EntityRow } from '../../db/schema.ts';
import {
  MAX_SEARCH_RESULTS,
  type NameFragment,
  type NameKind,
  type ReadModelDialect,
  type SearchPlan,
} from './dialect.ts';
import type { PhoneQuery } from './phone-search.ts';
import { postgresReadModel } from './postgres/repository.ts';
import { sqliteReadModel } from './sqlite/repository.ts';

export type EntityListRecordRow = Selectable<Database['entity_list_records']>;

/** The read model's SQL where the engines differ: the one place that asks which engine this is. */
export function readModelDialectOf(db: Db): ReadModelDialect {
  return engineOf(db) === 'postgres' ? postgresReadModel : sqliteReadModel;
}

/** A position in the list order. */
export interface ListKey {
  created_at: string;
  id: string;
}

/** A page entry: its key and its stored list record, or nulls where there is none. */
export type ListPageRow = ListKey & {
  head: string | null;
  verifications: string | null;
  documents: string | null;
  tail: string | null;
};

/** Which list page: a kind (or all), an order, and `offset` entries from `from` (or the start). */
export interface ListPageQuery {
  kind: 'legal' | 'person' | undefined;
  descending: boolean;
  limit: number;
  offset: number;
  from: ListKey | undefined;
}

/** The first key of a list page and the key after its last (the next page's first), if any. */
export interface ListPageBounds {
  first: ListKey | undefined;
  next: ListKey | undefined;
}

/** A list page as a stretch of list order: `limit` entries at most from `from`, before `next`. */
export interface ListPageRange {
  kind: 'legal' | 'person' | undefined;
  descending: boolean;
  limit: number;
  from: ListKey;
  next: ListKey | undefined;
}

/** A page's entries put together by the database. */
export interface ListPageJson {
  /** A JSON array of the stored entries' list JSON, as UTF-8 bytes; null when none is stored. */
  json: Buffer | null;
  /** Entries in the page, and those with a stored record (only those are in `json`). */
  entries: number;
  stored: number;
}

/** The JSON key put before a stored relation's array when the list includes it. */
export interface ListRelationKeys {
  verifications: string | undefined;
  documents: string | undefined;
}

/** Seven columns a row: well under either engine's bound-parameter limit. */
const LIST_RECORDS_PER_STATEMENT = 500;

/**
 * Search criteria already normalised by the service (DUNS padded, phone read as the digits it may
 * be stored as); text is folded here.
 */
export interface LegalEntitySearch {
  companyNameContains?: string;
  registrationNumber?: string;
  glei?: string;
  externalId?: string;
  duns?: string;
  phone?: PhoneQuery;
  primaryContactEmail?: string;
}

/** Natural-person criteria, the phone read by the service as above; text is folded here. */
export interface NaturalPersonSearch {
  firstNameContains?: string;
  lastNameContains?: string;
  email?: string;
  phone?: PhoneQuery;
  externalId?: string;
}

/** A phone search over a table's two derived digit columns, each served by its own index. */
function phoneMatches(
  columns: { international: string; national: string },
  phone: PhoneQuery,
): Expression<SqlBool> {
  const inList = (column: string, values: readonly string[]) =>
    sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;
  return sql<SqlBool>`(${inList(columns.international, phone.international)} or ${inList(columns.national, phone.national)})`;
}

/** The fragments when the search is for names alone (none empty once folded). */
function nameFragmentsAlone(
  criteria: object,
  nameColumns: Record<string, string>,
): NameFragment[] | undefined {
  const given = Object.entries(criteria).filter(([, value]) => value !== undefined);
  const fragments: NameFragment[] = [];
  for (const [key, value] of given) {
    const column = nameColumns[key];
    if (column === undefined || typeof value !== 'string') return undefined;
    const folded = foldForSearch(value);
    if (folded === '') return undefined;
    fragments.push({ column, folded });
  }
  return fragments.length > 0 ? fragments : undefined;
}

/**
 * The search as one query, every criterion compared folded and served by an index of its own
 * (a company name by LIKE, walking the search-order index or tested beside a narrower criterion;
 * PostgreSQL: pg_trgm, and for one or two characters the name_grams index); exported for the
 * query-plan tests.
 */
export function legalEntitySearchQuery(
  db: Db,
  search: LegalEntitySearch,
  plan: SearchPlan = 'best',
) {
  return (
    db
      .selectFrom('legal_entities')
      .select('legal_entities.entity_id')
      .where((eb) => {
        const conditions: Expression<SqlBool>[] = [];
        if (search.companyNameContains !== undefined) {
          conditions.push(
            readModelDialectOf(db).nameContaining(
              'legal_entities.company_name_folded',
              foldForSearch(search.companyNameContains),
              plan,
            ),
          );
        }
        if (search.registrationNumber !== undefined) {
          conditions.push(
            eb(
              'legal_entities.registration_number_normalised',
              '=',
              normalisedRegistrationNumber(search.registrationNumber),
            ),
          );
        }
        if (search.glei !== undefined) {
          conditions.push(
            readModelDialectOf(db).equalsAsciiIgnoringCase(
              'legal_entities.glei',
              foldForSearch(search.glei),
            ),
          );
        }
        if (search.externalId !== undefined) {
          conditions.push(
            eb('legal_entities.entity_id', 'in', externalIdMatches(db, search.externalId)),
          );
        }
        if (search.duns !== undefined) {
          conditions.push(eb('legal_entities.duns', '=', search.duns));
        }
        if (search.phone !== undefined) {
          conditions.push(
            phoneMatches(
              {
                international: 'legal_entities.company_phone_international_digits',
                national: 'legal_entities.company_phone_national_digits',
              },
              search.phone,
            ),
          );
        }
        if (search.primaryContactEmail !== undefined) {
          // From the e-mail index to the person's links, not from every legal entity to its contact.
          conditions.push(
            eb(
              'legal_entities.entity_id',
              'in',
              eb
                .selectFrom('natural_persons')
                .innerJoin('entity_links', 'entity_links.person_id', 'natural_persons.entity_id')
                .select('entity_links.legal_entity_id')
                .where(
                  'natural_persons.email_folded',
                  '=',
                  foldForSearch(search.primaryContactEmail),
                )
                .where('entity_links.relationship', '=', PRIMARY_CONTACT),
            ),
          );
        }
        return eb.and(conditions);
      })
      // The legal_entities_search_order index: no sort, and LIKE is tested inside the index.
      .orderBy('legal_entities.created_at')
      .orderBy('legal_entities.entity_id')
      .limit(MAX_SEARCH_RESULTS)
  );
}

/** IDs of the entities with this external ID (folded), for an `in` over either kind of entity. */
function externalIdMatches(db: Db, externalId: string) {
  return db
    .selectFrom('entities')
    .select('entities.id')
    .where('entities.external_id_folded', '=', foldForSearch(externalId));
}

/** The natural-person search as one query, like legalEntitySearchQuery; exported for its plan tests. */
export function naturalPersonSearchQuery(
  db: Db,
  search: NaturalPersonSearch,
  plan: SearchPlan = 'best',
) {
  return (
    db
      .selectFrom('natural_persons')
      .select('natural_persons.entity_id')
      .where((eb) => {
        const conditions: Expression<SqlBool>[] = [];
        if (search.firstNameContains !== undefined) {
          conditions.push(
            readModelDialectOf(db).nameContaining(
              'natural_persons.first_name_folded',
              foldForSearch(search.firstNameContains),
              plan,
            ),
          );
        }
        if (search.lastNameContains !== undefined) {
          conditions.push(
            readModelDialectOf(db).nameContaining(
              'natural_persons.last_name_folded',
              foldForSearch(search.lastNameContains),
              plan,
            ),
          );
        }
        if (search.email !== undefined) {
          conditions.push(eb('natural_persons.email_folded', '=', foldForSearch(search.email)));
        }
        if (search.phone !== undefined) {
          conditions.push(
            phoneMatches(
              {
                international: 'natural_persons.phone_international_digits',
                national: 'natural_persons.phone_national_digits',
              },
              search.phone,
            ),
          );
        }
        if (search.externalId !== undefined) {
          conditions.push(
            eb('natural_persons.entity_id', 'in', externalIdMatches(db, search.externalId)),
          );
        }
        return eb.and(conditions);
      })
      // The natural_persons_search_order index: no sort, and LIKE is tested inside the index.
      .orderBy('natural_persons.created_at')
      .orderBy('natural_persons.entity_id')
      .limit(MAX_SEARCH_RESULTS)
  );
}

/**
 * The keys of one list page, in order: the offset is skipped inside the covering (kind,
 * created_at, id) or (created_at, id) index, counting from `from` (itself included) when given,
 * so a known position nearby replaces skipping every earlier entry.
 */
function listPageKeys(db: Db, page: ListPageQuery) {
  const direction = page.descending ? 'desc' : 'asc';
  let keys = db.selectFrom('entities').select(['created_at', 'id']);
  if (page.kind) keys = keys.where('kind', '=', page.kind);
  const from = page.from;
  if (from) {
    keys = keys.where(
      sql<SqlBool>`(created_at, id) ${sql.raw(page.descending ? '<=' : '>=')} (${from.created_at}, ${from.id})`,
    );
  }
  return keys
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A list page's keys with their stored records (nulls where missing), joined by the order index;
 * for a page with missing records, which are then built.
 */
function listPageWithRecords(db: Db, page: ListPageQuery) {
  return db
    .selectFrom(listPageKeys(db, page).as('page_keys'))
    .leftJoin('entity_list_records', (join) =>
      join
        .onRef('entity_list_records.created_at', '=', 'page_keys.created_at')
        .onRef('entity_list_records.entity_id', '=', 'page_keys.id'),
    );
}

/** The rows of `table` in the page's stretch of list order, by the (kind,) created_at, id index. */
function listPageStretch(db: Db, table: 'entities' | 'entity_list_records', range: ListPageRange) {
  const direction = range.descending ? 'desc' : 'asc';
  const [atOrPast, short] = range.descending ? (['<=', '>'] as const) : (['>=', '<'] as const);
  const idColumn = table === 'entities' ? 'id' : 'entity_id';
  const key = sql`(created_at, ${sql.ref(idColumn)})`;
  const { from, next } = range;
  // Both tables have created_at and kind; the id column is named per table above.
  let rows = db
    .selectFrom(table as 'entity_list_records')
    .where(sql<SqlBool>`${key} ${sql.raw(atOrPast)} (${from.created_at}, ${from.id})`);
  if (next)
    rows = rows.where(sql<SqlBool>`${key} ${sql.raw(short)} (${next.created_at}, ${next.id})`);
  if (range.kind) rows = rows.where('kind', '=', range.kind);
  return rows
    .orderBy('created_at', direction)
    .orderBy(sql.ref(idColumn), direction)
    .limit(range.limit);
}

/** The only place with SQL for the list records and the searches (engine differences: dialect.ts). */
export function readModelRepository(db: Db) {
  const dialect = readModelDialectOf(db);
  return {
    /**
     * Keys and stored list records of one page, in order; record columns are null where the record
     * is missing (dropped by a change, migration 0013).
     */
    listPageRecords(page: ListPageQuery): Promise<ListPageRow[]> {
      const direction = page.descending ? 'desc' : 'asc';
      return listPageWithRecords(db, page)
        .select([
          'page_keys.created_at',
          'page_keys.id',
          'entity_list_records.head',
          'entity_list_records.verifications',
          'entity_list_records.documents',
          'entity_list_records.tail',
        ])
        .orderBy('page_keys.created_at', direction)
        .orderBy('page_keys.id', direction)
        .execute();
    },

    /**
     * Where a list page starts and the next one does: two entries found inside the order index.
     * Prepared, as is the page's JSON below: both walk that index whatever their parameters.
     */
    async listPageBounds(page: ListPageQuery): Promise<ListPageBounds> {
      const keyAt = (position: 'first' | 'next', offset: number) =>
        db
          .selectFrom(listPageKeys(db, { ...page, limit: 1, offset }).as(position))
          .select([sql.lit(position).as('position'), 'created_at', 'id']);
      const { rows } = await db.executeQuery(
        prepared(
          keyAt('first', page.offset)
            .unionAll(keyAt('next', page.offset + page.limit))
            .compile(),
        ),
      );
      const keyOf = (position: 'first' | 'next') => {
        const row = rows.find((candidate) => candidate.position === position);
        return row && { created_at: row.created_at, id: row.id };
      };
      return { first: keyOf('first'), next: keyOf('next') };
    },

    /**
     * The page's stored records, one range scan of the records' own order index, put together by
     * the database into one UTF-8 value (head, each included relation after its key, tail):
     * reading 400 columns a page into strings and encoding them again cost more than the query.
     * `entries` counts the page's entities, so `stored < entries` tells that records are missing.
     */
    async listPageJson(range: ListPageRange, keys: ListRelationKeys): Promise<ListPageJson> {
      const direction = sql.raw(range.descending ? 'desc' : 'asc');
      const relation = (key: string | undefined, column: 'verifications' | 'documents') =>
        key === undefined ? sql`` : sql`|| coalesce(${key} || ${sql.ref(`records.${column}`)}, '')`;
      const entry = sql<string>`records.head ${relation(keys.verifications, 'verifications')} ${relation(keys.documents, 'documents')} || records.tail`;
      const order = sql`order by records.created_at ${direction}, records.entity_id ${direction}`;
      // SQLite's aggregate ignores `order` and keeps the scan order (sqlite/repository.ts says why).
      const joined = dialect.joinedJsonArray(entry, order);
      const entities = db
        .selectFrom(listPageStretch(db, 'entities', range).select('created_at').as('page_entities'))
        .select((eb) => eb.fn.countAll<number | string>().as('entries'));
      const row = await takeFirstPrepared(
        db,
        db
          .selectFrom(
            listPageStretch(db, 'entity_list_records', range)
              .select(['created_at', 'entity_id', 'head', 'verifications', 'documents', 'tail'])
              .as('records'),
          )
          .select((eb) => [
            joined.as('json'),
            eb.fn.countAll<number | string>().as('stored'),
            entities.as('entries'),
          ]),
      );
      if (!row) throw new Error('An aggregate answered no row.');
      const json = typeof row.json === 'string' ? Buffer.from(row.json) : row.json;
      return { json, entries: Number(row.entries), stored: Number(row.stored) };
    },

    /** Up to `limit` entities without a list record after `after`, in list order, for the rebuild. */
    entitiesWithoutListRecord(after: ListKey, limit: number): Promise<EntityRow[]> {
      return db
        .selectFrom('entities')
        .leftJoin('entity_list_records', 'entity_list_records.entity_id', 'entities.id')
        .selectAll('entities')
        .where(
          sql<SqlBool>`(entities.created_at, entities.id) > (${after.created_at}, ${after.id})`,
        )
        .where('entity_list_records.entity_id', 'is', null)
        .orderBy('entities.created_at')
        .orderBy('entities.id')
        .limit(limit)
        .execute();
    },

    /** Stores list records, replacing older ones; call in the transaction that changed them. */
    async writeListRecords(records: readonly EntityListRecordRow[]) {
      for (let start = 0; start < records.length; start += LIST_RECORDS_PER_STATEMENT) {
        await db
          .insertInto('entity_list_records')
          .values(records.slice(start, start + LIST_RECORDS_PER_STATEMENT))
          .onConflict((conflict) =>
            conflict.column('entity_id').doUpdateSet((eb) => ({
              created_at: eb.ref('excluded.created_at'),
              kind: eb.ref('excluded.kind'),
              head: eb.ref('excluded.head'),
              verifications: eb.ref('excluded.verifications'),
              documents: eb.ref('excluded.documents'),
              tail: eb.ref('excluded.tail'),
            })),
          )
          .execute();
      }
    },

    /**
     * IDs of the legal entities matching every given criterion, oldest first. `plan: 'walk'`
     * skips the name indexes, for tests that compare its answers with the LIKE walk's.
     */
    async searchLegalEntities(
      search: LegalEntitySearch,
      plan: SearchPlan = 'best',
    ): Promise<string[]> {
      const fragments = nameFragmentsAlone(search, { companyNameContains: 'company_name_folded' });
      const byNameOrder =
        plan === 'best' && fragments && dialect.namesInListOrder(db, 'company', fragments);
      if (byNameOrder) return byNameOrder;
      const rows = await legalEntitySearchQuery(db, search, plan).execute();
      return rows.map((row) => row.entity_id);
    },

    /** IDs of the natural persons matching every given criterion, oldest first; `plan` as above. */
    async searchNaturalPersons(
      search: NaturalPersonSearch,
      plan: SearchPlan = 'best',
    ): Promise<string[]> {
      const fragments = nameFragmentsAlone(search, {
        firstNameContains: 'first_name_folded',
        lastNameContains: 'last_name_folded',
      });
      const byNameOrder =
        plan === 'best' && fragments && dialect.namesInListOrder(db, 'person', fragments);
      if (byNameOrder) return byNameOrder;
      const rows = await naturalPersonSearchQuery(db, search, plan).execute();
      return rows.map((row) => row.entity_id);
    },
  };
}

/**
 * Numbers every name of a kind in list order again, emptying its late list; after a bulk load
 * (the seed writes in random creation order), at a start with too many late, and by the
 * migrations' rebuild. One transaction's work; nothing to do on PostgreSQL, which keeps no copy.
 */
export function renumberNameOrder(db: Db, kind: NameKind): Promise<void> {
  return readModelDialectOf(db).renumberNameOrder(db, kind);
}

/** How many of a kind's names are late (none on PostgreSQL, which keeps no list). */
export function lateNameCount(db: Db, kind: NameKind): Promise<number> {
  return readModelDialectOf(db).lateNameCount(db, kind);
}

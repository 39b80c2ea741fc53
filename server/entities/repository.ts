import { type Expression, type Insertable, type Selectable, type SqlBool, sql } from 'kysely';
import { PRIMARY_CONTACT } from '../../contract/entities.ts';
import { digitsOnly } from '../../contract/identifiers.ts';
import { foldForSearch, normalisedRegistrationNumber } from '../../contract/search-text.ts';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import type {
  Database,
  EntityInput,
  EntityRow,
  LegalEntityInput,
  LegalEntityRow,
  NaturalPersonInput,
  NaturalPersonRow,
  VerificationRow,
} from '../db/schema.ts';
import { type PhoneQuery, phoneSearchDigits } from './phone-search.ts';

export type EntityLinkRow = Selectable<Database['entity_links']>;
export type EntityListRecordRow = Selectable<Database['entity_list_records']>;

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
export type IdempotencyKeyRow = Selectable<Database['idempotency_keys']>;

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

export interface NewLegalEntity {
  entity: EntityInput;
  legalEntity: LegalEntityInput;
  verifications: VerificationRow[];
  primaryContact?: { entity: EntityInput; person: NaturalPersonInput };
}

export const MAX_SEARCH_RESULTS = 500;

const foldedOrNull = (text: string | null | undefined) =>
  text === null || text === undefined ? null : foldForSearch(text);

/** The row with the folded copies search compares; every writer of entities goes through these. */
export function withEntitySearchColumns(row: EntityInput): Insertable<Database['entities']> {
  return { ...row, external_id_folded: foldedOrNull(row.external_id) };
}

export function withLegalEntitySearchColumns(
  row: LegalEntityInput,
): Insertable<Database['legal_entities']> {
  const phone = phoneSearchDigits(row.company_phone, row.country);
  return {
    ...row,
    company_name_folded: foldForSearch(row.company_name),
    registration_number_normalised: normalisedRegistrationNumber(row.registration_number),
    company_phone_international_digits: phone.international,
    company_phone_national_digits: phone.national,
  };
}

export function withNaturalPersonSearchColumns(
  row: NaturalPersonInput,
): Insertable<Database['natural_persons']> {
  return naturalPersonWithSearchColumns(row, row.country_code);
}

/** `phoneCountry` reads the phone: the person's country code, or their company's for a contact. */
function naturalPersonWithSearchColumns(
  row: NaturalPersonInput,
  phoneCountry: string | null | undefined,
): Insertable<Database['natural_persons']> {
  const phone = phoneSearchDigits(row.phone, phoneCountry);
  return {
    ...row,
    email_folded: foldedOrNull(row.email),
    first_name_folded: foldForSearch(row.first_name),
    last_name_folded: foldForSearch(row.last_name),
    phone_digits: row.phone === null || row.phone === undefined ? null : digitsOnly(row.phone),
    phone_international_digits: phone.international,
    phone_national_digits: phone.national,
  };
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

/** `%` and `_` in user input match themselves, not any characters. */
function likePatternContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Trigram index lookups need at least one trigram; shorter fragments read the n-gram index. */
const TRIGRAM_LENGTH = 3;

/** Fragments of at least this many characters read the index of runs of four (0019). */
const QUADGRAM_LENGTH = 4;

/** The input as one FTS5 phrase: quotes doubled, so `"`, `*`, `AND`, `NEAR(` and the like match literally. */
function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** `column like '%folded%'`, the condition that decides on every path. */
function likeContaining(column: string, folded: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${likePatternContaining(folded)} escape '\\'`;
}

/** `best` reads the name indexes; `walk` only the search-order index, for tests to compare. */
export type SearchPlan = 'best' | 'walk';

/**
 * A name fragment in the one-query search: LIKE decides; on PostgreSQL a fragment too short for a
 * trigram may also be looked up among the names' characters and pairs (0020), which the planner
 * reads instead of walking the search-order index when few names hold it.
 */
function nameContaining(db: Db, column: string, folded: string, plan: SearchPlan) {
  const like = likeContaining(column, folded);
  // A fragment of accents alone folds to nothing, which every name contains (as LIKE says).
  const length = Array.from(folded).length;
  if (plan === 'walk' || engineOf(db) !== 'postgres' || length >= TRIGRAM_LENGTH || length === 0)
    return like;
  return sql<SqlBool>`(${like} and name_grams(${sql.ref(column)}) @> array[${folded}]::text[])`;
}

/**
 * A kind's folded names copied in list order (migrations 0016 and 0017): `copy` numbers them by
 * position, `index` is the FTS5 trigram index over that position, `grams` the index of their one-
 * and two-character pieces (0018), `quadgrams` of their runs of four characters (0019), `late`
 * lists the positions of names that arrived after a later one (an older creation time), whose
 * numbers are out of order.
 */
interface NameOrder {
  table: 'legal_entities' | 'natural_persons';
  copy: string;
  late: string;
  index: string;
  grams: string;
  quadgrams: string;
  columns: readonly string[];
}

const NAME_ORDERS = {
  company: {
    table: 'legal_entities',
    copy: 'legal_entity_name_order',
    late: 'legal_entity_name_order_late',
    index: 'legal_entity_name_order_fts',
    grams: 'legal_entity_name_order_grams',
    quadgrams: 'legal_entity_name_order_quadgrams',
    columns: ['company_name_folded'],
  },
  person: {
    table: 'natural_persons',
    copy: 'natural_person_name_order',
    late: 'natural_person_name_order_late',
    index: 'natural_person_name_order_fts',
    grams: 'natural_person_name_order_grams',
    quadgrams: 'natural_person_name_order_quadgrams',
    columns: ['first_name_folded', 'last_name_folded'],
  },
} as const satisfies Record<string, NameOrder>;

export type NameKind = keyof typeof NAME_ORDERS;

/** A folded fragment to find in one of a kind's name columns. */
export interface NameFragment {
  column: string;
  folded: string;
}

/** The FTS5 query for a fragment as the n-gram indexes hold it: the hex of its UTF-8 bytes. */
function gramPhrase(folded: string): string {
  return `"${Buffer.from(folded, 'utf8').toString('hex')}"`;
}

/** Each distinct run of four characters in a fragment, as the quadgram index holds it. */
function quadgramPhrases(folded: string): string[] {
  const characters = Array.from(folded);
  const runs = new Set<string>();
  for (let start = 0; start + QUADGRAM_LENGTH <= characters.length; start++)
    runs.add(characters.slice(start, start + QUADGRAM_LENGTH).join(''));
  return [...runs].map(gramPhrase);
}

/**
 * The index a name search reads and its FTS5 query: runs of four characters when a fragment has
 * them (every run must be in the name; the candidates are few even when each trigram is common),
 * else trigrams, else single characters and pairs. Shorter fragments beside longer ones are left to
 * LIKE.
 */
function nameIndexLookup(names: NameOrder, fragments: readonly NameFragment[]) {
  const atLeast = (length: number) =>
    fragments.filter(({ folded }) => Array.from(folded).length >= length);
  // An index of one column needs no filter, and the company names' runs of four (0021) keep no
  // column lists to filter by.
  const inColumn = (column: string, phrase: string) =>
    names.columns.length > 1 ? `${column} : ${phrase}` : phrase;
  const quadgrams = atLeast(QUADGRAM_LENGTH);
  if (quadgrams.length > 0)
    return {
      index: names.quadgrams,
      match: quadgrams.flatMap(({ column, folded }) =>
        quadgramPhrases(folded).map((phrase) => inColumn(column, phrase)),
      ),
    };
  const trigrams = atLeast(TRIGRAM_LENGTH);
  if (trigrams.length > 0)
    return {
      index: names.index,
      match: trigrams.map(({ column, folded }) => inColumn(column, ftsPhrase(folded))),
    };
  return {
    index: names.grams,
    match: fragments.map(({ column, folded }) => inColumn(column, gramPhrase(folded))),
  };
}

/**
 * Name fragments alone, on SQLite: one of the kind's name indexes (`nameIndexLookup`) is read in
 * list order and stops at the 500th match, whatever the number of candidates. Late names are
 * tested apart and merged in; LIKE decides, as on the other paths. CROSS JOIN keeps the index and
 * the late list as the outer loops. Exported for the query-plan tests.
 */
export function namesInListOrderQuery(kind: NameKind, fragments: readonly NameFragment[]) {
  const names = NAME_ORDERS[kind];
  const likes = sql.join(
    fragments.map(({ column, folded }) => likeContaining(`name.${column}`, folded)),
    sql` and `,
  );
  const lookup = nameIndexLookup(names, fragments);
  const index = sql.table(lookup.index);
  return sql<{ entity_id: string }>`select entity_id from (
      select * from (
        select name.created_at, name.entity_id from ${index}
          cross join ${sql.table(names.copy)} name on name.position = ${index}.rowid
          where ${index} match ${lookup.match.join(' AND ')}
            and ${likes}
            and name.position not in (select position from ${sql.table(names.late)})
          order by ${index}.rowid
          limit ${MAX_SEARCH_RESULTS}
      )
      union all
      select name.created_at, name.entity_id from ${sql.table(names.late)} late
        cross join ${sql.table(names.copy)} name on name.position = late.position
        where ${likes}
    )
    order by created_at, entity_id
    limit ${MAX_SEARCH_RESULTS}`;
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
 * Numbers every name of a kind in list order again, emptying its late list; after a bulk load
 * (the seed writes in random creation order), at a start with too many late, and by the
 * migrations. One transaction's work.
 */
export async function renumberNameOrder(db: Db, kind: NameKind): Promise<void> {
  if (engineOf(db) === 'postgres') return;
  const names = NAME_ORDERS[kind];
  const columns = sql.join(names.columns.map((column) => sql.ref(column)));
  await sql`delete from ${sql.table(names.late)}`.execute(db);
  await sql`delete from ${sql.table(names.copy)}`.execute(db);
  await sql`insert into ${sql.table(names.copy)} (position, entity_id, created_at, ${columns})
    select row_number() over (order by created_at, entity_id), entity_id, created_at, ${columns}
    from ${sql.table(names.table)} order by created_at, entity_id`.execute(db);
  await sql`insert into ${sql.table(names.index)} (${sql.raw(names.index)}) values ('rebuild')`.execute(
    db,
  );
  // A rebuild leaves several segments (11 at a million names), each searched per trigram, and the
  // triggers leave the n-gram indexes in many; merged into one, company-name searches at a million
  // took 2.5 ms at p95 instead of 3.0 (a probe). The migrations that number names (0016, 0017) run
  // before the n-gram indexes exist.
  const { rows: indexes } = await sql<{ name: string }>`select name from sqlite_master
    where name in (${sql.join([names.index, names.grams, names.quadgrams])})`.execute(db);
  for (const { name } of indexes) {
    await sql`insert into ${sql.table(name)} (${sql.raw(name)}) values ('optimize')`.execute(db);
  }
}

/** How many of a kind's names are late (none on PostgreSQL, which keeps no list). */
export async function lateNameCount(db: Db, kind: NameKind): Promise<number> {
  if (engineOf(db) === 'postgres') return 0;
  const { rows } = await sql<{
    late: number;
  }>`select count(*) as late from ${sql.table(NAME_ORDERS[kind].late)}`.execute(db);
  return rows[0]?.late ?? 0;
}

/**
 * Equality with a folded value for columns that hold only ASCII (LEIs): there the `collate nocase`
 * index (SQLite) or the `lower()` index (PostgreSQL) compares as folding would, without a folded
 * copy.
 */
function equalsAsciiIgnoringCase(db: Db, column: string, folded: string): Expression<SqlBool> {
  return engineOf(db) === 'postgres'
    ? sql<SqlBool>`lower(${sql.ref(column)}) = ${folded}`
    : sql<SqlBool>`${sql.ref(column)} = ${folded} collate nocase`;
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
            nameContaining(
              db,
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
            equalsAsciiIgnoringCase(db, 'legal_entities.glei', foldForSearch(search.glei)),
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
            nameContaining(
              db,
              'natural_persons.first_name_folded',
              foldForSearch(search.firstNameContains),
              plan,
            ),
          );
        }
        if (search.lastNameContains !== undefined) {
          conditions.push(
            nameContaining(
              db,
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

/** The only place with SQL for entities, their links, verifications and idempotency keys. */
export function entitiesRepository(db: Db) {
  return {
    /** Runs `work` in one transaction, with repositories bound to it. */
    inTransaction<T>(work: (transaction: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

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

    /** Where a list page starts and the next one does: two entries found inside the order index. */
    async listPageBounds(page: ListPageQuery): Promise<ListPageBounds> {
      const keyAt = (position: 'first' | 'next', offset: number) =>
        db
          .selectFrom(listPageKeys(db, { ...page, limit: 1, offset }).as(position))
          .select([sql.lit(position).as('position'), 'created_at', 'id']);
      const rows = await keyAt('first', page.offset)
        .unionAll(keyAt('next', page.offset + page.limit))
        .execute();
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
      // SQLite aggregates the records' rows in their scan order (the tests hold it to that): an
      // ORDER BY in group_concat copied the page through a temporary b-tree (0.53 against 0.32 ms).
      const joined =
        engineOf(db) === 'postgres'
          ? sql<Buffer | null>`convert_to('[' || string_agg(${entry}, ',' ${order}) || ']', 'UTF8')`
          : sql<Buffer | null>`cast('[' || group_concat(${entry}, ',') || ']' as blob)`;
      const entities = db
        .selectFrom(listPageStretch(db, 'entities', range).select('created_at').as('page_entities'))
        .select((eb) => eb.fn.countAll<number | string>().as('entries'));
      const row = await db
        .selectFrom(
          listPageStretch(db, 'entity_list_records', range)
            .select(['created_at', 'entity_id', 'head', 'verifications', 'documents', 'tail'])
            .as('records'),
        )
        .select((eb) => [
          joined.as('json'),
          eb.fn.countAll<number | string>().as('stored'),
          entities.as('entries'),
        ])
        .executeTakeFirstOrThrow();
      return { json: row.json, entries: Number(row.entries), stored: Number(row.stored) };
    },

    entitiesByIds(ids: readonly string[]): Promise<EntityRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('entities').selectAll().where('id', 'in', ids).execute();
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

    findEntity(id: string): Promise<EntityRow | undefined> {
      return db.selectFrom('entities').selectAll().where('id', '=', id).executeTakeFirst();
    },

    legalEntitiesByIds(ids: readonly string[]): Promise<LegalEntityRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('legal_entities').selectAll().where('entity_id', 'in', ids).execute();
    },

    naturalPersonsByIds(ids: readonly string[]): Promise<NaturalPersonRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('natural_persons').selectAll().where('entity_id', 'in', ids).execute();
    },

    /** Links of these legal entities, the primary contact first. */
    linksOfLegalEntities(ids: readonly string[]): Promise<EntityLinkRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('entity_links')
        .selectAll()
        .where('legal_entity_id', 'in', ids)
        .orderBy((eb) => eb.case().when('relationship', '=', PRIMARY_CONTACT).then(0).else(1).end())
        .orderBy('relationship')
        .orderBy('person_id')
        .execute();
    },

    linksOfPersons(ids: readonly string[]): Promise<EntityLinkRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('entity_links')
        .selectAll()
        .where('person_id', 'in', ids)
        .orderBy('relationship')
        .orderBy('legal_entity_id')
        .execute();
    },

    verificationsOf(legalEntityIds: readonly string[]): Promise<VerificationRow[]> {
      if (legalEntityIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('verifications')
        .selectAll()
        .where('legal_entity_id', 'in', legalEntityIds)
        .orderBy('verification_date')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
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
      if (plan === 'best' && engineOf(db) === 'sqlite' && fragments) {
        const { rows } = await namesInListOrderQuery('company', fragments).execute(db);
        return rows.map((row) => row.entity_id);
      }
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
      if (plan === 'best' && engineOf(db) === 'sqlite' && fragments) {
        const { rows } = await namesInListOrderQuery('person', fragments).execute(db);
        return rows.map((row) => row.entity_id);
      }
      const rows = await naturalPersonSearchQuery(db, search, plan).execute();
      return rows.map((row) => row.entity_id);
    },

    /** The legal entity whose registration number is this one once normalised, in this country. */
    findByRegistration(
      registrationNumber: string,
      country: string,
    ): Promise<
      { entity_id: string; registration_number: string; company_name: string } | undefined
    > {
      return db
        .selectFrom('legal_entities')
        .select(['entity_id', 'registration_number', 'company_name'])
        .where(
          'registration_number_normalised',
          '=',
          normalisedRegistrationNumber(registrationNumber),
        )
        .where('country', '=', country)
        .executeTakeFirst();
    },

    /** Inserts the legal entity, its verifications and its primary contact; call inside a transaction. */
    async insertLegalEntity(records: NewLegalEntity) {
      const contact = records.primaryContact;
      await db
        .insertInto('entities')
        .values(
          (contact ? [records.entity, contact.entity] : [records.entity]).map(
            withEntitySearchColumns,
          ),
        )
        .execute();
      await db
        .insertInto('legal_entities')
        .values(withLegalEntitySearchColumns(records.legalEntity))
        .execute();
      if (records.verifications.length > 0) {
        await db.insertInto('verifications').values(records.verifications).execute();
      }
      if (contact) {
        await db
          .insertInto('natural_persons')
          .values(
            naturalPersonWithSearchColumns(
              contact.person,
              contact.person.country_code ?? records.legalEntity.country,
            ),
          )
          .execute();
        await db
          .insertInto('entity_links')
          .values({
            legal_entity_id: records.entity.id,
            person_id: contact.entity.id,
            relationship: PRIMARY_CONTACT,
          })
          .execute();
      }
    },

    findIdempotencyKey(accountId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
    },

    async insertIdempotencyKey(row: IdempotencyKeyRow) {
      await db.insertInto('idempotency_keys').values(row).execute();
    },
  };
}

export type EntitiesRepository = ReturnType<typeof entitiesRepository>;

import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import {
  likeContaining,
  MAX_SEARCH_RESULTS,
  type NameFragment,
  type NameKind,
  type ReadModelDialect,
  type SearchPlan,
} from '../dialect.ts';

/** pg_trgm's index lookups need at least one trigram; shorter fragments read name_grams (0020). */
const TRIGRAM_LENGTH = 3;

/**
 * Matches the probe reads from the name indexes before it gives up on them for the walk: past
 * this many, the walk finds a page within 500 × table / PROBE_LIMIT names.
 */
export const PROBE_LIMIT = 2_000;

const NAME_TABLES: Record<NameKind, 'legal_entities' | 'natural_persons'> = {
  company: 'legal_entities',
  person: 'natural_persons',
};

/** A name fragment as pg_trgm (or name_grams) can serve it. */
function nameContaining(column: string, folded: string, plan: SearchPlan): Expression<SqlBool> {
  const like = likeContaining(column, folded);
  // A fragment of accents alone folds to nothing, which every name contains (as LIKE says).
  const length = Array.from(folded).length;
  if (plan === 'walk' || length >= TRIGRAM_LENGTH || length === 0) return like;
  return sql<SqlBool>`(${like} and name_grams(${sql.ref(column)}) @> array[${folded}]::text[])`;
}

/** The fragments as the probe reads them: by the trigram and n-gram indexes. */
function probedNames(table: string, fragments: readonly NameFragment[]) {
  return sql.join(
    fragments.map(({ column, folded }) => nameContaining(`${table}.${column}`, folded, 'best')),
    sql` and `,
  );
}

/**
 * The fragments as the walk reads them: `strpos` is a plain substring test (LIKE's answer for a
 * pattern of escaped text), which no name index serves and whose selectivity the planner takes
 * as a third, so it walks the search-order index (which holds the names) in list order and stops
 * at the page's last match, never a scan of every name and a sort.
 */
function walkedNames(table: string, fragments: readonly NameFragment[]) {
  return sql.join(
    fragments.map(
      ({ column, folded }) => sql<SqlBool>`strpos(${sql.ref(`${table}.${column}`)}, ${folded}) > 0`,
    ),
    sql` and `,
  );
}

/**
 * Names alone, both ends held: the probe reads at most PROBE_LIMIT + 1 matches from the name
 * indexes (a rare fragment: all of them, sorted here); when there are more, a fragment that common
 * is found by walking the search-order index in list order, which stops at the page's last match.
 * Either plan alone fails at one end (the walk reads every name for a rare fragment, the index
 * every match of a common one before sorting); the planner's estimates of LIKE cannot tell them apart.
 * Exported for the plan tests.
 */
export function namesByProbeQuery(
  kind: NameKind,
  fragments: readonly NameFragment[],
  probeLimit = PROBE_LIMIT,
) {
  const table = NAME_TABLES[kind];
  return sql<{ entity_id: string; matches: string }>`select entity_id, count(*) over () as matches
    from (select created_at, entity_id from ${sql.table(table)}
      where ${probedNames(table, fragments)} limit ${probeLimit + 1}) as probe
    order by created_at, entity_id
    limit ${MAX_SEARCH_RESULTS}`;
}

/** The walk for a common fragment (see namesByProbeQuery); exported for the plan tests. */
export function namesByWalkQuery(kind: NameKind, fragments: readonly NameFragment[]) {
  const table = NAME_TABLES[kind];
  return sql<{ entity_id: string }>`select entity_id from ${sql.table(table)}
    where ${walkedNames(table, fragments)}
    order by created_at, entity_id
    limit ${MAX_SEARCH_RESULTS}`;
}

/** IDs of the names holding every fragment, oldest first; `probeLimit` smaller for tests. */
export async function namesByProbeThenWalk(
  db: Db,
  kind: NameKind,
  fragments: readonly NameFragment[],
  probeLimit = PROBE_LIMIT,
): Promise<string[]> {
  const { rows } = await namesByProbeQuery(kind, fragments, probeLimit).execute(db);
  if (Number(rows[0]?.matches ?? 0) <= probeLimit) return rows.map((row) => row.entity_id);
  const walked = await namesByWalkQuery(kind, fragments).execute(db);
  return walked.rows.map((row) => row.entity_id);
}

/**
 * PostgreSQL: names alone by the probe, then the walk (namesInListOrder above); names with other
 * criteria by pg_trgm and the name_grams index in the one query (no copies in list order, so
 * nothing to renumber and nothing late); the `lower()` index compares LEIs; the page is joined by
 * string_agg.
 */
export const postgresReadModel: ReadModelDialect = {
  // A fragment too short for a trigram may also be looked up among the names' characters and pairs (0020).
  nameContaining,

  equalsAsciiIgnoringCase: (column, folded): Expression<SqlBool> =>
    sql<SqlBool>`lower(${sql.ref(column)}) = ${folded}`,

  // Text, not bytea: node-postgres reads bytea as hex, twice the page's size to encode and decode.
  joinedJsonArray: (entry, order) =>
    sql<string | null>`'[' || string_agg(${entry}, ',' ${order}) || ']'`,

  namesInListOrder: (db, kind, fragments) => namesByProbeThenWalk(db, kind, fragments),

  renumberNameOrder: () => Promise.resolve(),

  lateNameCount: () => Promise.resolve(0),

  async afterSearchColumnsRewritten(db) {
    await sql`analyze legal_entities, natural_persons`.execute(db);
  },

  // Locks the one row the transaction claims.
  lockingRow: (query) => query.forUpdate(),
};

import { type Expression, type SqlBool, sql } from 'kysely';
import { likeContaining, type ReadModelDialect } from '../dialect.ts';

/** pg_trgm's index lookups need at least one trigram; shorter fragments read name_grams (0020). */
const TRIGRAM_LENGTH = 3;

/**
 * PostgreSQL: names are searched by pg_trgm and the name_grams index in the one query (no copies
 * in list order, so nothing to renumber and nothing late); the `lower()` index compares LEIs; the
 * page is joined by string_agg.
 */
export const postgresReadModel: ReadModelDialect = {
  /**
   * A fragment too short for a trigram may also be looked up among the names' characters and
   * pairs (0020), which the planner reads instead of walking the search-order index when few names
   * hold it.
   */
  nameContaining(column, folded, plan): Expression<SqlBool> {
    const like = likeContaining(column, folded);
    // A fragment of accents alone folds to nothing, which every name contains (as LIKE says).
    const length = Array.from(folded).length;
    if (plan === 'walk' || length >= TRIGRAM_LENGTH || length === 0) return like;
    return sql<SqlBool>`(${like} and name_grams(${sql.ref(column)}) @> array[${folded}]::text[])`;
  },

  equalsAsciiIgnoringCase: (column, folded): Expression<SqlBool> =>
    sql<SqlBool>`lower(${sql.ref(column)}) = ${folded}`,

  // Text, not bytea: node-postgres reads bytea as hex, twice the page's size to encode and decode.
  joinedJsonArray: (entry, order) =>
    sql<string | null>`'[' || string_agg(${entry}, ',' ${order}) || ']'`,

  namesInListOrder: () => undefined,

  renumberNameOrder: () => Promise.resolve(),

  lateNameCount: () => Promise.resolve(0),

  async afterSearchColumnsRewritten(db) {
    await sql`analyze legal_entities, natural_persons`.execute(db);
  },

  // Locks the one row the transaction claims.
  lockingRow: (query) => query.forUpdate(),
};

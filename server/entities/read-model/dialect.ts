import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The most IDs a search answers with. */
export const MAX_SEARCH_RESULTS = 500;

/** `best` reads the name indexes; `walk` only the search-order index, for tests to compare. */
export type SearchPlan = 'best' | 'walk';

/** The two kinds of names searched by fragment: company names and natural persons' names. */
export type NameKind = 'company' | 'person';

/** A folded fragment to find in one of a kind's name columns. */
export interface NameFragment {
  column: string;
  folded: string;
}

/** `%` and `_` in user input match themselves, not any characters. */
function likePatternContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `column like '%folded%'`, the condition that decides on every path of either engine. */
export function likeContaining(column: string, folded: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${likePatternContaining(folded)} escape '\\'`;
}

/**
 * Where the read model's SQL differs between the engines: one small function per difference,
 * written in `sqlite/repository.ts` and `postgres/repository.ts`, chosen by `readModelDialectOf`.
 */
export interface ReadModelDialect {
  /** A name fragment in the one-query search; LIKE decides, an index may narrow it first. */
  nameContaining(column: string, folded: string, plan: SearchPlan): Expression<SqlBool>;
  /** Equality with a folded value for columns that hold only ASCII (LEIs), by their own index. */
  equalsAsciiIgnoringCase(column: string, folded: string): Expression<SqlBool>;
  /** The page's list JSON entries, in `order`, as one JSON array: UTF-8 bytes or text (null when none). */
  joinedJsonArray(
    entry: RawBuilder<string>,
    order: RawBuilder<unknown>,
  ): RawBuilder<Buffer | string | null>;
  /** Names alone searched through an engine's own index in list order; undefined: no such path. */
  namesInListOrder(
    db: Db,
    kind: NameKind,
    fragments: readonly NameFragment[],
  ): Promise<string[]> | undefined;
  /** Numbers every name of a kind in list order again (one transaction's work). */
  renumberNameOrder(db: Db, kind: NameKind): Promise<void>;
  /** How many of a kind's names arrived out of list order. */
  lateNameCount(db: Db, kind: NameKind): Promise<number>;
  /** After the folded columns were written again: the name indexes or the planner's statistics. */
  afterSearchColumnsRewritten(
    db: Db,
    rewritten: { companies: number; people: number },
  ): Promise<void>;
  /** Locks the row a transaction claims, where the engine's transaction does not already. */
  lockingRow<Query extends { forUpdate(): Query }>(query: Query): Query;
}

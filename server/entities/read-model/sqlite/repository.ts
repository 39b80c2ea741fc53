import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import {
  likeContaining,
  MAX_SEARCH_RESULTS,
  type NameFragment,
  type NameKind,
  type ReadModelDialect,
} from '../dialect.ts';

/** Trigram index lookups need at least one trigram; shorter fragments read the n-gram index. */
const TRIGRAM_LENGTH = 3;

/** Fragments of at least this many characters read the index of runs of four (0019). */
const QUADGRAM_LENGTH = 4;

/** The input as one FTS5 phrase: quotes doubled, so `"`, `*`, `AND`, `NEAR(` and the like match literally. */
function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
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
} as const satisfies Record<NameKind, NameOrder>;

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

/**
 * Numbers every name of a kind in list order again, emptying its late list; after a bulk load
 * (the seed writes in random creation order), at a start with too many late, and by the
 * migrations. One transaction's work.
 */
async function renumberNameOrder(db: Db, kind: NameKind): Promise<void> {
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

/** How many of a kind's names are late. */
async function lateNameCount(db: Db, kind: NameKind): Promise<number> {
  const { rows } = await sql<{
    late: number;
  }>`select count(*) as late from ${sql.table(NAME_ORDERS[kind].late)}`.execute(db);
  return rows[0]?.late ?? 0;
}

/** Each kind's FTS5 indexes, merged after their names were written again. */
const NAME_INDEXES = {
  company: [
    'legal_entity_name_order_fts',
    'legal_entity_name_order_grams',
    'legal_entity_name_order_quadgrams',
  ],
  person: [
    'natural_person_name_order_fts',
    'natural_person_name_order_grams',
    'natural_person_name_order_quadgrams',
  ],
} as const satisfies Record<NameKind, readonly string[]>;

/**
 * SQLite: names alone are read through the FTS5 indexes over the names copied in list order; the
 * `collate nocase` index compares LEIs; the page is joined by group_concat.
 */
export const sqliteReadModel: ReadModelDialect = {
  nameContaining: (column, folded) => likeContaining(column, folded),

  equalsAsciiIgnoringCase: (column, folded): Expression<SqlBool> =>
    sql<SqlBool>`${sql.ref(column)} = ${folded} collate nocase`,

  // SQLite aggregates the records' rows in their scan order (the tests hold it to that): an
  // ORDER BY in group_concat copied the page through a temporary b-tree (0.53 against 0.32 ms).
  joinedJsonArray: (entry) =>
    sql<Buffer | null>`cast('[' || group_concat(${entry}, ',') || ']' as blob)`,

  async namesInListOrder(db, kind, fragments) {
    const { rows } = await namesInListOrderQuery(kind, fragments).execute(db);
    return rows.map((row) => row.entity_id);
  },

  renumberNameOrder,
  lateNameCount,

  // The triggers left the rewritten names in new segments of each index: merged, as a renumbering does.
  async afterSearchColumnsRewritten(db, rewritten) {
    for (const [count, indexes] of [
      [rewritten.companies, NAME_INDEXES.company],
      [rewritten.people, NAME_INDEXES.person],
    ] as const) {
      if (count === 0) continue;
      for (const index of indexes) {
        await sql`insert into ${sql.raw(index)} (${sql.raw(index)}) values ('optimize')`.execute(
          db,
        );
      }
    }
  },

  // BEGIN IMMEDIATE already holds the write lock.
  lockingRow: (query) => query,
};

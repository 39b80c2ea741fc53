import { type Kysely, sql } from 'kysely';

// Frozen as 0021 left them: 0018 wrote nameGrams and addNameGramIndex, 0019 nameQuadgrams, 0021 the detail.
/**
 * Offsets into a folded name, for the n-gram triggers (SQLite triggers cannot recurse). The API
 * takes names of at most 200 characters, which fold to at most 3,600 (NFKC's longest expansion).
 */
export const NAME_GRAM_OFFSETS = 4000;

/** SQL for a folded name's n-grams: each character and each pair, as hex of their UTF-8 bytes. */
export function nameGrams(column: string): string {
  return `(select group_concat(hex(substr(${column}, name_gram_offsets.n, 1)) || ' ' || hex(substr(${column}, name_gram_offsets.n, 2)), ' ')
      from name_gram_offsets where name_gram_offsets.n <= length(${column}))`;
}

/**
 * SQL for a folded name's runs of four characters, as hex of their UTF-8 bytes. `n <= length - 3`
 * keeps the offsets a range of their key (`n + 3 <= length` read all 4,000 for every name).
 */
export function nameQuadgrams(column: string): string {
  return `(select group_concat(hex(substr(${column}, name_gram_offsets.n, 4)), ' ')
      from name_gram_offsets where name_gram_offsets.n <= length(${column}) - 3)`;
}

export const COMPANY_NAME_COPY = {
  copy: 'legal_entity_name_order',
  columns: ['company_name_folded'],
};
export const PERSON_NAME_COPY = {
  copy: 'natural_person_name_order',
  columns: ['first_name_folded', 'last_name_folded'],
};

/**
 * SQLite: `index`, an FTS5 index of pieces of the names in a list-order copy (0016, 0017), over the
 * copy's positions, kept by triggers on the copy: each character and pair (`nameGrams`, 0018) or
 * each run of four (`nameQuadgrams`, 0019). A piece is one token of hex digits, so FTS5's ascii
 * tokenizer keeps it whole; contentless, it stores only which positions hold each piece.
 */
export async function addNameGramIndex(
  db: Kysely<unknown>,
  names: { copy: string; columns: readonly string[] },
  grams: string,
  piecesOf: (column: string) => string,
  detail: 'column' | 'none' = 'column',
): Promise<void> {
  const { copy } = names;
  const columns = names.columns.join(', ');
  const newGrams = names.columns.map((column) => piecesOf(`new.${column}`)).join(',\n      ');
  await sql`create virtual table ${sql.raw(grams)} using fts5(${sql.raw(columns)}, content='', contentless_delete=1, detail=${sql.raw(`'${detail}'`)}, tokenize='ascii')`.execute(
    db,
  );
  const insert = `insert into ${grams} (rowid, ${columns}) values (new.position,
      ${newGrams});`;
  const remove = `delete from ${grams} where rowid = old.position;`;
  await sql
    .raw(`create trigger ${grams}_insert after insert on ${copy} begin ${insert} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${grams}_delete after delete on ${copy} begin ${remove} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${grams}_update after update on ${copy} begin ${remove} ${insert} end`)
    .execute(db);
  await sql
    .raw(
      `insert into ${grams} (rowid, ${columns}) select position, ${names.columns.map(piecesOf).join(', ')} from ${copy}`,
    )
    .execute(db);
}

import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite has read one- and two-character fragments from its n-gram indexes since 0018.
  if (engineOf(db) === 'sqlite') return;
  // pg_trgm has no trigram for them: a search walked the search-order index, which reads every
  // name when fewer than 500 hold the fragment (a rare pair: 35-80 ms at 100,000 legal entities).
  // Each character, then each pair (repeats are harmless to the index). PL/pgSQL: the walk
  // tests it on every name LIKE lets through, and an SQL function with a subquery cost 4x as much.
  await sql`create function name_grams(name text) returns text[] language plpgsql immutable strict parallel safe as $$
    declare
      characters text[] := string_to_array(name, null);
      grams text[] := characters;
    begin
      for i in 1 .. coalesce(array_length(characters, 1), 0) - 1 loop
        grams := grams || (characters[i] || characters[i + 1]);
      end loop;
      return grams;
    end $$`.execute(db);
  for (const [table, column] of [
    ['legal_entities', 'company_name_folded'],
    ['natural_persons', 'first_name_folded'],
    ['natural_persons', 'last_name_folded'],
  ] as const) {
    await sql`create index ${sql.raw(`${table}_${column.replace('_folded', '')}_grams`)} on ${sql.table(table)} using gin (name_grams(${sql.ref(column)}))`.execute(
      db,
    );
  }
  // The planner chooses between this index and the walk by the pairs' frequencies.
  await sql`analyze legal_entities, natural_persons`.execute(db);
}

import { type Kysely, sql } from 'kysely';
import { requestRebuild } from './helpers/0015-derived-data.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Search now also ignores accents, special letters and typographic punctuation (foldForSearch):
  // every stored folded column is computed again after the migrations (on SQLite the name copies,
  // their trigram, n-gram and quadgram indexes follow through their triggers), and the new phone
  // columns filled.
  // Phones are searched by their international digits or national number, read per country.
  await sql`alter table legal_entities add column company_phone_international_digits text`.execute(
    db,
  );
  await sql`alter table legal_entities add column company_phone_national_digits text`.execute(db);
  await sql`alter table natural_persons add column phone_international_digits text`.execute(db);
  await sql`alter table natural_persons add column phone_national_digits text`.execute(db);
  await sql`drop index legal_entities_phone`.execute(db);
  await sql`drop index natural_persons_phone`.execute(db);
  for (const [table, prefix] of [
    ['legal_entities', 'company_phone'],
    ['natural_persons', 'phone'],
  ] as const) {
    for (const form of ['international', 'national'] as const) {
      await sql`create index ${sql.raw(`${table}_phone_${form}`)} on ${sql.table(table)} (${sql.raw(`${prefix}_${form}_digits`)})`.execute(
        db,
      );
    }
  }

  await requestRebuild(db, 'search-columns', '0022_accent_folded_search', 'entities');
}

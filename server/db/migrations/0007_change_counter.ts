import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite's PRAGMA data_version tells a reader that another connection wrote; PostgreSQL has
  // no such thing, so every write to what entity answers show bumps this one row, in the
  // writer's own transaction (a reader never sees the new count before the new data).
  if (engineOf(db) !== 'postgres') return;
  await sql`create table change_counter (id integer primary key check (id = 1), version bigint not null)`.execute(
    db,
  );
  await sql`insert into change_counter (id, version) values (1, 0)`.execute(db);
  await sql`create function bump_change_counter() returns trigger language plpgsql as $$
      begin
        update change_counter set version = version + 1 where id = 1;
        return null;
      end $$`.execute(db);
  for (const table of [
    'entities',
    'legal_entities',
    'natural_persons',
    'entity_links',
    'verifications',
    'documents',
  ]) {
    await sql`create trigger ${sql.raw(`${table}_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_change_counter()`.execute(db);
  }
}

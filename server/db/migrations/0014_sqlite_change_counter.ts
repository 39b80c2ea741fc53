import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every request now writes its audit event, which moves SQLite's data_version and
  // total_changes(): the response cache follows the same counter as on PostgreSQL (0007),
  // bumped only by writes to what entity answers show.
  if (engineOf(db) === 'postgres') return;
  await sql`create table change_counter (id integer primary key check (id = 1), version integer not null)`.execute(
    db,
  );
  await sql`insert into change_counter (id, version) values (1, 0)`.execute(db);
  for (const table of [
    'entities',
    'legal_entities',
    'natural_persons',
    'entity_links',
    'verifications',
    'documents',
  ]) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_${event}_changed`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update change_counter set version = version + 1 where id = 1; end`.execute(db);
    }
  }
}

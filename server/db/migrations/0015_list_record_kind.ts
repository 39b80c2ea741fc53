import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';
import { requestRebuild } from './helpers/0015-derived-data.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A page of one kind is then one range scan of its records, where joining the entities'
  // keys looked up each record (0.45 against 0.25 ms a page at 100,000 entities).
  await db.schema.alterTable('entity_list_records').addColumn('kind', 'text').execute();
  await sql`update entity_list_records set kind = (select kind from entities where entities.id = entity_list_records.entity_id)`.execute(
    db,
  );
  // SQLite cannot add NOT NULL to a filled column; a record without its kind is only missed
  // by the kind's range scan, so that page is built from the tables, still correct.
  if (engineOf(db) === 'postgres') {
    await sql`alter table entity_list_records alter column kind set not null`.execute(db);
  }
  await db.schema
    .createIndex('entity_list_records_kind_order')
    .on('entity_list_records')
    .columns(['kind', 'created_at', 'entity_id'])
    .execute();
  // The records 0013 made room for, and any dropped since, are built after the migrations with
  // the kind (a later change to the record columns asks again).
  await requestRebuild(db, 'list-records', '0015_list_record_kind', 'entities');
}

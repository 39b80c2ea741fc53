import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A list page read 100 entities and their children by random UUID and built their JSON
  // (6 ms at 100,000 entities); each entity's list JSON kept here makes it one join.
  await db.schema
    .createTable('entity_list_records')
    .addColumn('entity_id', 'text', (c) =>
      c.primaryKey().references('entities.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('head', 'text', (c) => c.notNull())
    .addColumn('verifications', 'text')
    .addColumn('documents', 'text')
    .addColumn('tail', 'text', (c) => c.notNull())
    .execute();
  // A page's records are found in list order, next to each other (written in that order).
  await db.schema
    .createIndex('entity_list_records_order')
    .on('entity_list_records')
    .columns(['created_at', 'entity_id'])
    .execute();
  // Any change to what a record shows drops it, whoever writes: a missing record is built on
  // read (correct, slower) until a writer stores it again (refreshListRecords).
  const sources: [table: string, columns: string[]][] = [
    ['entities', ['id']],
    ['legal_entities', ['entity_id']],
    ['natural_persons', ['entity_id']],
    ['entity_links', ['legal_entity_id', 'person_id']],
    ['verifications', ['legal_entity_id']],
    ['documents', ['entity_id']],
  ];
  if (engineOf(db) === 'postgres') {
    await sql`create function forget_entity_list_records() returns trigger language plpgsql as $$
      declare
        i integer;
      begin
        for i in 0 .. tg_nargs - 1 loop
          if tg_op <> 'INSERT' then
            delete from entity_list_records where entity_id = to_jsonb(old) ->> tg_argv[i];
          end if;
          if tg_op <> 'DELETE' then
            delete from entity_list_records where entity_id = to_jsonb(new) ->> tg_argv[i];
          end if;
        end loop;
        return null;
      end $$`.execute(db);
    for (const [table, columns] of sources) {
      await sql`create trigger ${sql.raw(`${table}_forget_list_records`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function forget_entity_list_records(${sql.raw(columns.map((column) => `'${column}'`).join(', '))})`.execute(
        db,
      );
    }
  } else {
    for (const [table, columns] of sources) {
      for (const operation of ['insert', 'update', 'delete'] as const) {
        const rows =
          operation === 'insert' ? ['new'] : operation === 'delete' ? ['old'] : ['old', 'new'];
        const ids = rows.flatMap((row) => columns.map((column) => `${row}.${column}`)).join(', ');
        await sql`create trigger ${sql.raw(`${table}_forget_list_records_${operation}`)} after ${sql.raw(operation)} on ${sql.table(table)} begin
          delete from entity_list_records where entity_id in (${sql.raw(ids)});
        end`.execute(db);
      }
    }
  }
  // The records are built after the migrations, as 0015 asks (the record carries the kind).
}

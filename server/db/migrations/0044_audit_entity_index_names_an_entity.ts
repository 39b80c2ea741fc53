import { type Kysely, sql } from 'kysely';

/**
 * The audit trail's entity index holds only the events that name an entity. List and search reads
 * (most events) name none, so their commits write one index page fewer; an entity's history asks
 * for `entity_id = ?`, which implies the condition, and reads the same index on both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_events_entity_id').execute();
  await db.schema
    .createIndex('audit_events_entity_id')
    .on('audit_events')
    .columns(['entity_id', 'seq'])
    .where(sql.ref('entity_id'), 'is not', null)
    .execute();
}

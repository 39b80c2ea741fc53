import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Who decided on a document, when and why (a rejection needs a reason); null until decided.
  for (const column of ['decided_by', 'decided_at', 'decision_reason']) {
    await db.schema.alterTable('documents').addColumn(column, 'text').execute();
  }

  // A decision held for a second reviewer (four-eyes); kept after it is confirmed or rejected.
  await db.schema
    .createTable('pending_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('legal_entity_id', 'text', (c) =>
      c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
    )
    .addColumn('verification', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_account', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'confirmed', 'rejected')`),
    )
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('reason', 'text')
    .execute();
  // At most one decision waits per entity: the second is refused (409) by this index.
  await sql`create unique index pending_verifications_one_pending on pending_verifications (legal_entity_id) where state = 'pending'`.execute(
    db,
  );

  // Notes on an entity, paged newest first by (at, id).
  await db.schema
    .createTable('notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) =>
      c.notNull().references('entities.id').onDelete('cascade'),
    )
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notes_entity')
    .on('notes')
    .columns(['entity_id', 'at', 'id'])
    .execute();

  // The gateway's own notes: the entity lives upstream, its ID is opaque, so no foreign key.
  await db.schema
    .createTable('gateway_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('gateway_notes_entity')
    .on('gateway_notes')
    .columns(['entity_id', 'at', 'id'])
    .execute();
}

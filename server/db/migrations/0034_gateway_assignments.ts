import { type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Gateway mode: who works on an entity of the identity service (its ID is opaque: no foreign key).
  await db.schema
    .createTable('gateway_assignments')
    .addColumn('entity_id', 'text', (c) => c.primaryKey())
    .addColumn('assignee', 'text', (c) => c.notNull())
    .addColumn('assigned_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('gateway_assignments_assignee')
    .on('gateway_assignments')
    .columns(['assignee', 'entity_id'])
    .execute();

  // Gateway mode: everyone who has signed in through the gateway, the reviewers it can assign.
  await db.schema
    .createTable('gateway_reviewers')
    .addColumn('username_folded', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('last_sign_in', 'text', (c) => c.notNull())
    .execute();
}

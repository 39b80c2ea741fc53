import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The portal link's token, stored as its sha256 only; null for links sent before the portal.
  await db.schema.alterTable('client_update_requests').addColumn('token_hash', 'text').execute();
  await db.schema
    .createIndex('client_update_requests_token_hash')
    .on('client_update_requests')
    .column('token_hash')
    .unique()
    .execute();
  // A client's answer: the contact corrections it proposed and what a reviewer did with them.
  await db.schema
    .createTable('client_responses')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('contact', 'text')
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('contact_outcome', 'text', (c) =>
      c.check(sql`contact_outcome in ('applied', 'dismissed')`),
    )
    .addColumn('contact_decided_by', 'text')
    .addColumn('contact_decided_at', 'text')
    .execute();
  // Documents a client sent through the portal name their request: "from the client".
  await db.schema.alterTable('documents').addColumn('client_request_id', 'text').execute();
}

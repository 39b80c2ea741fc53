import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The gateway's record of client-update requests it forwarded; entities live upstream, so
  // no foreign key. `position` orders requests made within the same millisecond.
  await db.schema
    .createTable('relayed_client_update_requests')
    .addColumn('position', engineOf(db) === 'postgres' ? 'serial' : 'integer', (c) =>
      c.primaryKey(),
    )
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text', (c) => c.notNull())
    .addColumn('config_id', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('relayed_client_update_requests_entity')
    .on('relayed_client_update_requests')
    .columns(['entity_id', 'position'])
    .execute();
}

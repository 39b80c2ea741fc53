import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Client responses: a request's state past its delivery (`status` stays the delivery's
  // outcome), with the time of each step, in both modes' tables.
  const states = sql`state in ('sent', 'opened', 'submitted', 'reviewed', 'failed', 'expired')`;
  for (const table of ['client_update_requests', 'relayed_client_update_requests']) {
    await db.schema
      .alterTable(table)
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('sent').check(states))
      .execute();
    for (const column of [
      'opened_at',
      'submitted_at',
      'reviewed_at',
      'reviewed_by',
      'expires_at',
    ]) {
      await db.schema.alterTable(table).addColumn(column, 'text').execute();
    }
    // Links sent before this migration lapse seven days after sending, the default of PORTAL_LINK_DAYS.
    const expiry =
      engineOf(db) === 'postgres'
        ? sql`to_char((sent_at::timestamptz + interval '7 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
        : sql`strftime('%Y-%m-%dT%H:%M:%fZ', sent_at, '+7 days')`;
    await sql`update ${sql.table(table)} set state = status, expires_at = case when sent_at is null then null else ${expiry} end`.execute(
      db,
    );
    // The queue's Responded window reads the submitted requests alone.
    await db.schema
      .createIndex(`${table}_state`)
      .on(table)
      .columns(['state', 'entity_id'])
      .execute();
  }
  // Gateway mode: each webhook event once, by the identity service's id.
  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .execute();
}

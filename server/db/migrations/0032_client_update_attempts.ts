import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every e-mail of a client-update request: the first, each resend and each reminder, with its outcome.
  await db.schema
    .createTable('client_update_attempts')
    .addColumn('request_id', 'text', (c) =>
      c.notNull().references('client_update_requests.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('first', 'resend', 'reminder')`),
    )
    .addColumn('outcome', 'text', (c) =>
      c.notNull().check(sql`outcome in ('sending', 'sent', 'failed')`),
    )
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('sent_by', 'text', (c) => c.notNull())
    // A reminder's Idempotency-Key: the same key again answers the attempt it made and sends nothing.
    .addColumn('idempotency_key', 'text')
    // One row per attempt number: two clicks racing for the same attempt cannot both send.
    .addPrimaryKeyConstraint('client_update_attempts_pk', ['request_id', 'attempt'])
    .addUniqueConstraint('client_update_attempts_idempotency', ['request_id', 'idempotency_key'])
    .execute();
  // Requests sent before this migration keep their one known attempt: the last recorded delivery.
  await sql`insert into client_update_attempts (request_id, attempt, kind, outcome, at, error, sent_by)
    select id, 1, 'first', status, coalesce(sent_at, created_at), error, requested_by
    from client_update_requests`.execute(db);
}

import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  // `seq` is given by the writer (last + 1 under the write lock) and is part of each hash.
  await db.schema
    .createTable('audit_events')
    .addColumn('seq', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('document_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('client_address', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  for (const column of ['entity_id', 'actor', 'action', 'at']) {
    await db.schema
      .createIndex(`audit_events_${column}`)
      .on('audit_events')
      .columns([column, 'seq'])
      .execute();
  }
  // Where the chain starts after retention pruned older events (one row at most).
  await db.schema
    .createTable('audit_anchor')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('through_seq', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('pruned_at', 'text', (c) => c.notNull())
    .addColumn('pruned_count', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
  // Append-only in the database too: no update, and deletes only at or before the anchor.
  if (postgres) {
    await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          raise exception 'audit events cannot be changed';
        end if;
        if old.seq > coalesce((select through_seq from audit_anchor where id = 1), 0) then
          raise exception 'audit events are deleted only by retention';
        end if;
        return old;
      end $$`.execute(db);
    await sql`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_events_no_update before update on audit_events begin
      select raise(abort, 'audit events cannot be changed'); end`.execute(db);
    await sql`create trigger audit_events_no_delete before delete on audit_events
      when old.seq > coalesce((select through_seq from audit_anchor where id = 1), 0) begin
      select raise(abort, 'audit events are deleted only by retention'); end`.execute(db);
  }
  await db.schema
    .alterTable('accounts')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('reviewer')
        .check(sql`role in ('reviewer', 'auditor')`),
    )
    .execute();
  // Gateway mode: the reviewer who signed in, by the SHA-256 of the token they were given.
  await db.schema
    .createTable('gateway_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('gateway_roles')
    .addColumn('username', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('reviewer', 'auditor')`))
    .execute();
}

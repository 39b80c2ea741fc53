import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // In the database rather than in memory, so every process and instance sees the same counts.
  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('limit_key', 'text', (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'failed')`))
    .addPrimaryKeyConstraint('sign_in_attempts_pk', ['attempt_id', 'limit_key'])
    .execute();
  await db.schema
    .createIndex('sign_in_attempts_key')
    .on('sign_in_attempts')
    .columns(['limit_key', 'at_ms'])
    .execute();
  await db.schema
    .createIndex('sign_in_attempts_at')
    .on('sign_in_attempts')
    .column('at_ms')
    .execute();
}

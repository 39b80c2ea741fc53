import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The reviewer an entity is assigned to (a username), null while nobody works on it.
  await db.schema.alterTable('entities').addColumn('assignee', 'text').execute();
  // "Assigned to <name>" pages and counts are a range of this index, in queue order.
  await db.schema
    .createIndex('entities_assignee_queue')
    .on('entities')
    .columns(['assignee', 'next_kyc_review', 'id'])
    .execute();
  // "Waiting for my confirmation": the held decisions, oldest first, without the closed ones.
  await sql`create index pending_verifications_waiting on pending_verifications (requested_at, id) where state = 'pending'`.execute(
    db,
  );
}

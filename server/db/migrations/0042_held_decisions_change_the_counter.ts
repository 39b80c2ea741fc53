import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * Held decisions (four-eyes) move the change counter of 0007 and 0014 too, in the writer's own
 * transaction: the overview's "waiting for me" count is then kept, per caller, until the next
 * write that can change it, as the other counts are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql`create trigger pending_verifications_changed after insert or update or delete or truncate on pending_verifications
      for each statement execute function bump_change_counter()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.raw(`pending_verifications_${event}_changed`)} after ${sql.raw(event)} on pending_verifications
      begin update change_counter set version = version + 1 where id = 1; end`.execute(db);
  }
}

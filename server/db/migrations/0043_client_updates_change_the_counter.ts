import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * Client-update requests move the change counter of 0007 and 0014 too, in the writer's own
 * transaction: a review queue page (with its count of clients' answers waiting) is then kept
 * until the next write that can change it, as the entity index's pages are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql`create trigger client_update_requests_changed after insert or update or delete or truncate on client_update_requests
      for each statement execute function bump_change_counter()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.raw(`client_update_requests_${event}_changed`)} after ${sql.raw(event)} on client_update_requests
      begin update change_counter set version = version + 1 where id = 1; end`.execute(db);
  }
}

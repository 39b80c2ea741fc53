import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Search answers oldest first: with the creation time beside the name, one index walk in that
  // order tests the name without a lookup into entities per row.
  await sql`alter table legal_entities add column created_at text`.execute(db);
  await sql`update legal_entities set created_at = (select created_at from entities where entities.id = legal_entities.entity_id)`.execute(
    db,
  );
  await sql`create index legal_entities_search_order on legal_entities (created_at, entity_id, company_name)`.execute(
    db,
  );
  // Every writer (API, seed, fixtures) inserts the entity first; the copy is made here, once.
  if (engineOf(db) === 'postgres') {
    await sql`create function legal_entities_created_at() returns trigger language plpgsql as $$
      begin
        new.created_at := (select created_at from entities where entities.id = new.entity_id);
        return new;
      end $$`.execute(db);
    await sql`create trigger legal_entities_created_at before insert on legal_entities
      for each row execute function legal_entities_created_at()`.execute(db);
    return;
  }
  await sql`create trigger legal_entities_created_at after insert on legal_entities begin
    update legal_entities set created_at = (select created_at from entities where entities.id = new.entity_id) where rowid = new.rowid;
  end`.execute(db);
}

import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    // pg_trgm's GIN index serves `lower(company_name) like '%…%'` directly.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index legal_entities_company_name_trgm on legal_entities using gin (lower(company_name) gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // External content over legal_entities' rowid: the index stores trigrams, not a second copy of the names.
  await sql`create virtual table legal_entities_company_name_fts using fts5(company_name, content='legal_entities', content_rowid='rowid', tokenize='trigram')`.execute(
    db,
  );
  await sql`create trigger legal_entities_company_name_fts_insert after insert on legal_entities begin
    insert into legal_entities_company_name_fts (rowid, company_name) values (new.rowid, new.company_name);
  end`.execute(db);
  await sql`create trigger legal_entities_company_name_fts_delete after delete on legal_entities begin
    insert into legal_entities_company_name_fts (legal_entities_company_name_fts, rowid, company_name) values ('delete', old.rowid, old.company_name);
  end`.execute(db);
  await sql`create trigger legal_entities_company_name_fts_update after update of company_name on legal_entities begin
    insert into legal_entities_company_name_fts (legal_entities_company_name_fts, rowid, company_name) values ('delete', old.rowid, old.company_name);
    insert into legal_entities_company_name_fts (rowid, company_name) values (new.rowid, new.company_name);
  end`.execute(db);
  await sql`insert into legal_entities_company_name_fts (legal_entities_company_name_fts) values ('rebuild')`.execute(
    db,
  );
}

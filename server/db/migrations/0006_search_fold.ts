import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';
import {
  digitsOnly,
  foldForSearch,
  normalisedRegistrationNumber,
} from './helpers/0006-search-text.ts';

/** Rows per UPDATE when a migration writes values computed in JavaScript. */
const ROWS_PER_UPDATE = 500;

/**
 * Sets `target` to `compute(source)` on every row where `source` is not null, rows found by their
 * `key` column. SQLite has no Unicode case folding (and PostgreSQL's depends on its locale), so
 * the values are computed here, as the repositories compute them, and written back in multi-row
 * UPDATEs.
 */
async function fillComputedColumn(
  db: Kysely<unknown>,
  table: string,
  key: string,
  source: string,
  target: string,
  compute: (text: string) => string,
): Promise<void> {
  const { rows } = await sql<{
    id: string;
    text: string;
  }>`select ${sql.ref(key)} as id, ${sql.ref(source)} as text from ${sql.table(table)} where ${sql.ref(source)} is not null`.execute(
    db,
  );
  for (let start = 0; start < rows.length; start += ROWS_PER_UPDATE) {
    const values = sql.join(
      rows
        .slice(start, start + ROWS_PER_UPDATE)
        .map((row) => sql`(${row.id}, ${compute(row.text)})`),
    );
    await sql`with computed (id, value) as (values ${values})
      update ${sql.table(table)} set ${sql.ref(target)} = computed.value from computed where ${sql.table(table)}.${sql.ref(key)} = computed.id`.execute(
      db,
    );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Search compares folded copies (NFKC and full case folding, computed in JavaScript); the
  // entities repository writes them with every row, and this fills them for existing rows.
  const postgres = engineOf(db) === 'postgres';
  if (postgres) {
    await sql`drop index legal_entities_company_name_trgm`.execute(db);
  } else {
    await sql`drop trigger legal_entities_company_name_fts_insert`.execute(db);
    await sql`drop trigger legal_entities_company_name_fts_delete`.execute(db);
    await sql`drop trigger legal_entities_company_name_fts_update`.execute(db);
    await sql`drop table legal_entities_company_name_fts`.execute(db);
  }
  await sql`drop index legal_entities_search_order`.execute(db);
  await sql`drop index entities_external_id`.execute(db);
  await sql`drop index natural_persons_email`.execute(db);

  await sql`drop index legal_entities_registration`.execute(db);
  await sql`alter table legal_entities add column company_name_folded text`.execute(db);
  await sql`alter table legal_entities add column registration_number_normalised text`.execute(db);
  await sql`alter table entities add column external_id_folded text`.execute(db);
  await sql`alter table natural_persons add column email_folded text`.execute(db);
  await sql`alter table natural_persons add column first_name_folded text`.execute(db);
  await sql`alter table natural_persons add column last_name_folded text`.execute(db);
  await sql`alter table natural_persons add column phone_digits text`.execute(db);
  await sql`alter table natural_persons add column created_at text`.execute(db);
  await sql`update natural_persons set created_at = (select created_at from entities where entities.id = natural_persons.entity_id)`.execute(
    db,
  );
  // As legal_entities_created_at (0004): the search order, copied once per insert.
  if (postgres) {
    await sql`create function natural_persons_created_at() returns trigger language plpgsql as $$
      begin
        new.created_at := (select created_at from entities where entities.id = new.entity_id);
        return new;
      end $$`.execute(db);
    await sql`create trigger natural_persons_created_at before insert on natural_persons
      for each row execute function natural_persons_created_at()`.execute(db);
  } else {
    await sql`create trigger natural_persons_created_at after insert on natural_persons begin
      update natural_persons set created_at = (select created_at from entities where entities.id = new.entity_id) where rowid = new.rowid;
    end`.execute(db);
  }
  await fillComputedColumn(
    db,
    'legal_entities',
    'entity_id',
    'company_name',
    'company_name_folded',
    foldForSearch,
  );
  await fillComputedColumn(
    db,
    'legal_entities',
    'entity_id',
    'registration_number',
    'registration_number_normalised',
    normalisedRegistrationNumber,
  );
  await fillComputedColumn(
    db,
    'entities',
    'id',
    'external_id',
    'external_id_folded',
    foldForSearch,
  );
  await fillComputedColumn(
    db,
    'natural_persons',
    'entity_id',
    'email',
    'email_folded',
    foldForSearch,
  );
  await fillComputedColumn(
    db,
    'natural_persons',
    'entity_id',
    'first_name',
    'first_name_folded',
    foldForSearch,
  );
  await fillComputedColumn(
    db,
    'natural_persons',
    'entity_id',
    'last_name',
    'last_name_folded',
    foldForSearch,
  );
  await fillComputedColumn(db, 'natural_persons', 'entity_id', 'phone', 'phone_digits', digitsOnly);

  // Numbers stored apart that are now one number cannot be merged here: the operator decides.
  const { rows: duplicates } = await sql<{
    country: string;
    numbers: string;
    ids: string;
  }>`select country, ${postgres ? sql`string_agg(registration_number, ' / ' order by created_at)` : sql`group_concat(registration_number, ' / ' order by rowid)`} as numbers,
      ${postgres ? sql`string_agg(entity_id, ', ' order by created_at)` : sql`group_concat(entity_id, ', ' order by rowid)`} as ids
    from legal_entities group by registration_number_normalised, country having count(*) > 1`.execute(
    db,
  );
  if (duplicates.length > 0) {
    const listed = duplicates
      .map((duplicate) => `${duplicate.numbers} in ${duplicate.country} (${duplicate.ids})`)
      .join('; ');
    throw new Error(
      `Registration numbers that differ only in case, spaces, dashes, dots or slashes are one number now; change or remove one of each before upgrading: ${listed}.`,
    );
  }
  await sql`create unique index legal_entities_registration on legal_entities (registration_number_normalised, country)`.execute(
    db,
  );

  // A writer that skips the copies would leave rows that search cannot find, or a duplicate.
  if (postgres) {
    await sql`alter table legal_entities add constraint legal_entities_search_columns check (company_name_folded is not null and registration_number_normalised is not null)`.execute(
      db,
    );
    await sql`alter table entities add constraint entities_search_columns check (external_id is null or external_id_folded is not null)`.execute(
      db,
    );
    await sql`alter table natural_persons add constraint natural_persons_search_columns check (first_name_folded is not null and last_name_folded is not null and (email is null or email_folded is not null) and (phone is null or phone_digits is not null))`.execute(
      db,
    );
    // pg_trgm's GIN indexes serve `like '%…%'` on the folded names directly.
    await sql`create index legal_entities_company_name_trgm on legal_entities using gin (company_name_folded gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index natural_persons_first_name_trgm on natural_persons using gin (first_name_folded gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index natural_persons_last_name_trgm on natural_persons using gin (last_name_folded gin_trgm_ops)`.execute(
      db,
    );
  } else {
    // A writer that skips the copies would leave rows that search cannot find, or a duplicate.
    await sql`create trigger legal_entities_search_columns before insert on legal_entities when new.company_name_folded is null or new.registration_number_normalised is null begin
      select raise(abort, 'legal_entities.company_name_folded or registration_number_normalised is missing: insert legal entities with withLegalEntitySearchColumns.');
    end`.execute(db);
    await sql`create trigger entities_search_columns before insert on entities when new.external_id is not null and new.external_id_folded is null begin
      select raise(abort, 'entities.external_id_folded is missing: insert entities with withEntitySearchColumns.');
    end`.execute(db);
    await sql`create trigger natural_persons_search_columns before insert on natural_persons
      when new.first_name_folded is null or new.last_name_folded is null
        or (new.email is not null and new.email_folded is null) or (new.phone is not null and new.phone_digits is null) begin
      select raise(abort, 'natural_persons search columns are missing: insert natural persons with withNaturalPersonSearchColumns.');
    end`.execute(db);

    // The folded names are already lower case: the tokenizer's own (older, simple) folding would only add candidates.
    await sql`create virtual table legal_entities_company_name_fts using fts5(company_name_folded, content='legal_entities', content_rowid='rowid', tokenize='trigram case_sensitive 1')`.execute(
      db,
    );
    await sql`create trigger legal_entities_company_name_fts_insert after insert on legal_entities begin
      insert into legal_entities_company_name_fts (rowid, company_name_folded) values (new.rowid, new.company_name_folded);
    end`.execute(db);
    await sql`create trigger legal_entities_company_name_fts_delete after delete on legal_entities begin
      insert into legal_entities_company_name_fts (legal_entities_company_name_fts, rowid, company_name_folded) values ('delete', old.rowid, old.company_name_folded);
    end`.execute(db);
    await sql`create trigger legal_entities_company_name_fts_update after update of company_name_folded on legal_entities begin
      insert into legal_entities_company_name_fts (legal_entities_company_name_fts, rowid, company_name_folded) values ('delete', old.rowid, old.company_name_folded);
      insert into legal_entities_company_name_fts (rowid, company_name_folded) values (new.rowid, new.company_name_folded);
    end`.execute(db);
    await sql`insert into legal_entities_company_name_fts (legal_entities_company_name_fts) values ('rebuild')`.execute(
      db,
    );
  }

  await sql`create index legal_entities_search_order on legal_entities (created_at, entity_id, company_name_folded)`.execute(
    db,
  );

  if (!postgres) {
    // Natural persons by name: the same trigram index and walk in creation order as company names.
    await sql`create virtual table natural_persons_name_fts using fts5(first_name_folded, last_name_folded, content='natural_persons', content_rowid='rowid', tokenize='trigram case_sensitive 1')`.execute(
      db,
    );
    await sql`create trigger natural_persons_name_fts_insert after insert on natural_persons begin
      insert into natural_persons_name_fts (rowid, first_name_folded, last_name_folded) values (new.rowid, new.first_name_folded, new.last_name_folded);
    end`.execute(db);
    await sql`create trigger natural_persons_name_fts_delete after delete on natural_persons begin
      insert into natural_persons_name_fts (natural_persons_name_fts, rowid, first_name_folded, last_name_folded) values ('delete', old.rowid, old.first_name_folded, old.last_name_folded);
    end`.execute(db);
    await sql`create trigger natural_persons_name_fts_update after update of first_name_folded, last_name_folded on natural_persons begin
      insert into natural_persons_name_fts (natural_persons_name_fts, rowid, first_name_folded, last_name_folded) values ('delete', old.rowid, old.first_name_folded, old.last_name_folded);
      insert into natural_persons_name_fts (rowid, first_name_folded, last_name_folded) values (new.rowid, new.first_name_folded, new.last_name_folded);
    end`.execute(db);
    await sql`insert into natural_persons_name_fts (natural_persons_name_fts) values ('rebuild')`.execute(
      db,
    );
  }
  await sql`create index natural_persons_search_order on natural_persons (created_at, entity_id, first_name_folded, last_name_folded)`.execute(
    db,
  );
  await sql`create index natural_persons_phone on natural_persons (phone_digits)`.execute(db);
  await sql`create index entities_external_id_folded on entities (external_id_folded)`.execute(db);
  await sql`create index natural_persons_email_folded on natural_persons (email_folded)`.execute(
    db,
  );
}

import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { engineOf } from './engine.ts';

/**
 * A column compared ignoring case in an index: `collate nocase` on SQLite, `lower()` on
 * PostgreSQL (whose repositories compare `lower(column)` to match).
 */
function ignoringCase(db: Kysely<unknown>, column: string) {
  return engineOf(db) === 'postgres'
    ? sql.raw(`lower(${column})`)
    : sql.raw(`${column} collate nocase`);
}

/** Bytes: `blob` on SQLite, `bytea` on PostgreSQL. */
function bytesType(db: Kysely<unknown>) {
  return engineOf(db) === 'postgres' ? 'bytea' : 'blob';
}

import { PRIMARY_CONTACT } from '../../src/contract/entities.ts';
import { digitsOnly } from '../../src/contract/identifiers.ts';
import { foldForSearch, normalisedRegistrationNumber } from '../../src/contract/search-text.ts';
import {
  currentVerificationOf,
  type DatedVerification,
} from '../../src/contract/current-verification.ts';
import { rebuildListRecords, refreshListRecords } from '../entities/list-records.ts';
import { phoneSearchDigits } from '../entities/phone-search.ts';
import { renumberNameOrder } from '../entities/repository.ts';

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

/** Rows read at a time when a migration recomputes columns (0022). */
const ROWS_PER_READ = 5000;

/**
 * Recomputes columns of `table` in batches of rows read in `key` order: `read` gives the rows after
 * a key with their current values, `compute` the values they should hold; only rows that differ
 * are written, in multi-row UPDATEs (so triggers that copy the columns fire for those alone).
 * Returns how many rows changed.
 */
async function recomputeColumns<Row extends { id: string }>(
  db: Kysely<unknown>,
  table: string,
  key: string,
  targets: readonly string[],
  read: (after: string | null, limit: number) => Promise<Row[]>,
  compute: (row: Row) => Record<string, string | null>,
): Promise<number> {
  let after: string | null = null;
  let changed = 0;
  for (;;) {
    const rows = await read(after, ROWS_PER_READ);
    const updates: { id: string; values: (string | null)[] }[] = [];
    for (const row of rows) {
      const computed = compute(row);
      const current = row as unknown as Record<string, string | null>;
      if (targets.some((target) => computed[target] !== current[target]))
        updates.push({ id: row.id, values: targets.map((target) => computed[target] ?? null) });
    }
    for (let start = 0; start < updates.length; start += ROWS_PER_UPDATE) {
      const values = sql.join(
        updates
          .slice(start, start + ROWS_PER_UPDATE)
          .map((update) => sql`(${sql.join([update.id, ...update.values])})`),
      );
      const names = sql.join(
        ['id', ...targets.map((_, index) => `v${index}`)].map((name) => sql.raw(name)),
      );
      const assignments = sql.join(
        targets.map((target, index) => sql`${sql.ref(target)} = computed.${sql.raw(`v${index}`)}`),
      );
      await sql`with computed (${names}) as (values ${values})
        update ${sql.table(table)} set ${assignments} from computed where ${sql.table(table)}.${sql.ref(key)} = computed.id`.execute(
        db,
      );
    }
    changed += updates.length;
    const last = rows.at(-1);
    if (last === undefined || rows.length < ROWS_PER_READ) return changed;
    after = last.id;
  }
}

/** `where key > after order by key limit n`, the batches recomputeColumns reads. */
function afterKey(key: string, after: string | null, limit: number) {
  const from = after === null ? sql`` : sql`where ${sql.ref(key)} > ${after}`;
  return sql`${from} order by ${sql.ref(key)} limit ${limit}`;
}

/** SQLite: drops an FTS index and the triggers that keep it, `index`_insert, _delete and _update. */
async function dropIndexAndTriggers(db: Kysely<unknown>, index: string): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`${index}_${event}`)}`.execute(db);
  }
  await sql`drop table ${sql.raw(index)}`.execute(db);
}

/**
 * SQLite (0016, 0017): drops a table's trigram index over its rowid and its triggers, and creates
 * `copy` (the folded name columns numbered by `position`), `copy`_late (positions of names
 * inserted after a later one in list order) and `copy`_fts (the trigram index over `position`),
 * kept by triggers on `table`. The caller numbers the rows (renumberNameOrder).
 */
async function replaceNameIndexWithListOrderCopy(
  db: Kysely<unknown>,
  names: { table: string; oldIndex: string; copy: string; columns: readonly string[] },
): Promise<void> {
  const { table, oldIndex, copy } = names;
  const late = `${copy}_late`;
  const index = `${copy}_fts`;
  const columns = names.columns.join(', ');
  const newValues = names.columns.map((column) => `new.${column}`).join(', ');
  const setNew = names.columns.map((column) => `${column} = new.${column}`).join(', ');
  await dropIndexAndTriggers(db, oldIndex);
  await sql`create table ${sql.raw(copy)} (
    position integer primary key,
    entity_id text not null unique,
    created_at text not null,
    ${sql.raw(names.columns.map((column) => `${column} text not null`).join(',\n    '))}
  )`.execute(db);
  await sql`create table ${sql.raw(late)} (position integer primary key)`.execute(db);
  await sql`create virtual table ${sql.raw(index)} using fts5(${sql.raw(columns)}, content='${sql.raw(copy)}', content_rowid='position', tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  // The table's created_at is filled by another insert trigger (0004, 0006); the entity has it.
  await sql
    .raw(
      `create trigger ${copy}_insert after insert on ${table} begin
    insert into ${copy} (entity_id, created_at, ${columns})
      values (new.entity_id, (select created_at from entities where id = new.entity_id), ${newValues});
    insert into ${index} (rowid, ${columns})
      select position, ${columns} from ${copy} where entity_id = new.entity_id;
    insert into ${late} (position)
      select name.position from ${copy} name where name.entity_id = new.entity_id
        and exists (select 1 from ${table} later where (later.created_at, later.entity_id) > (name.created_at, name.entity_id));
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${copy}_delete after delete on ${table} begin
    insert into ${index} (${index}, rowid, ${columns})
      select 'delete', position, ${columns} from ${copy} where entity_id = old.entity_id;
    delete from ${late}
      where position = (select position from ${copy} where entity_id = old.entity_id);
    delete from ${copy} where entity_id = old.entity_id;
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${copy}_update after update of ${columns} on ${table} begin
    insert into ${index} (${index}, rowid, ${columns})
      select 'delete', position, ${columns} from ${copy} where entity_id = old.entity_id;
    update ${copy} set ${setNew} where entity_id = new.entity_id;
    insert into ${index} (rowid, ${columns})
      select position, ${columns} from ${copy} where entity_id = new.entity_id;
  end`,
    )
    .execute(db);
}

/**
 * Offsets into a folded name, for the n-gram triggers (SQLite triggers cannot recurse). The API
 * takes names of at most 200 characters, which fold to at most 3,600 (NFKC's longest expansion).
 */
const NAME_GRAM_OFFSETS = 4000;

/** SQL for a folded name's n-grams: each character and each pair, as hex of their UTF-8 bytes. */
function nameGrams(column: string): string {
  return `(select group_concat(hex(substr(${column}, name_gram_offsets.n, 1)) || ' ' || hex(substr(${column}, name_gram_offsets.n, 2)), ' ')
      from name_gram_offsets where name_gram_offsets.n <= length(${column}))`;
}

/**
 * SQL for a folded name's runs of four characters, as hex of their UTF-8 bytes. `n <= length - 3`
 * keeps the offsets a range of their key (`n + 3 <= length` read all 4,000 for every name).
 */
function nameQuadgrams(column: string): string {
  return `(select group_concat(hex(substr(${column}, name_gram_offsets.n, 4)), ' ')
      from name_gram_offsets where name_gram_offsets.n <= length(${column}) - 3)`;
}

const COMPANY_NAME_COPY = { copy: 'legal_entity_name_order', columns: ['company_name_folded'] };
const PERSON_NAME_COPY = {
  copy: 'natural_person_name_order',
  columns: ['first_name_folded', 'last_name_folded'],
};

/**
 * SQLite: `index`, an FTS5 index of pieces of the names in a list-order copy (0016, 0017), over the
 * copy's positions, kept by triggers on the copy: each character and pair (`nameGrams`, 0018) or
 * each run of four (`nameQuadgrams`, 0019). A piece is one token of hex digits, so FTS5's ascii
 * tokenizer keeps it whole; contentless, it stores only which positions hold each piece.
 */
async function addNameGramIndex(
  db: Kysely<unknown>,
  names: { copy: string; columns: readonly string[] },
  grams: string,
  piecesOf: (column: string) => string,
  detail: 'column' | 'none' = 'column',
): Promise<void> {
  const { copy } = names;
  const columns = names.columns.join(', ');
  const newGrams = names.columns.map((column) => piecesOf(`new.${column}`)).join(',\n      ');
  await sql`create virtual table ${sql.raw(grams)} using fts5(${sql.raw(columns)}, content='', contentless_delete=1, detail=${sql.raw(`'${detail}'`)}, tokenize='ascii')`.execute(
    db,
  );
  const insert = `insert into ${grams} (rowid, ${columns}) values (new.position,
      ${newGrams});`;
  const remove = `delete from ${grams} where rowid = old.position;`;
  await sql
    .raw(`create trigger ${grams}_insert after insert on ${copy} begin ${insert} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${grams}_delete after delete on ${copy} begin ${remove} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${grams}_update after update on ${copy} begin ${remove} ${insert} end`)
    .execute(db);
  await sql
    .raw(
      `insert into ${grams} (rowid, ${columns}) select position, ${names.columns.map(piecesOf).join(', ')} from ${copy}`,
    )
    .execute(db);
}

/** Versioned migrations, applied in name order at start-up. Never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('entities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('legal', 'person')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('kyc_status', 'text', (c) => c.notNull())
        .addColumn('risk_level', 'text', (c) => c.notNull())
        .addColumn('last_update', 'text', (c) => c.notNull())
        .addColumn('next_kyc_review', 'text')
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createIndex('entities_order')
        .on('entities')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('entities_kind_order')
        .on('entities')
        .columns(['kind', 'created_at', 'id'])
        .execute();
      await sql`create index entities_external_id on entities (${ignoringCase(db, 'external_id')})`.execute(
        db,
      );

      await db.schema
        .createTable('legal_entities')
        .addColumn('entity_id', 'text', (c) =>
          c.primaryKey().references('entities.id').onDelete('cascade'),
        )
        .addColumn('company_name', 'text', (c) => c.notNull())
        .addColumn('registration_number', 'text', (c) => c.notNull())
        .addColumn('date_of_incorporation', 'text')
        .addColumn('duns', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('glei', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('company_phone', 'text')
        .addColumn('company_phone_digits', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('primary_address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state_province', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`create unique index legal_entities_registration on legal_entities (${ignoringCase(db, 'registration_number')}, country)`.execute(
        db,
      );
      await sql`create index legal_entities_duns on legal_entities (duns)`.execute(db);
      await sql`create index legal_entities_glei on legal_entities (${ignoringCase(db, 'glei')})`.execute(
        db,
      );
      await sql`create index legal_entities_phone on legal_entities (company_phone_digits)`.execute(
        db,
      );

      await db.schema
        .createTable('natural_persons')
        .addColumn('entity_id', 'text', (c) =>
          c.primaryKey().references('entities.id').onDelete('cascade'),
        )
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('middle_name', 'text')
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('date_of_birth', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('address', 'text')
        .addColumn('city', 'text')
        .addColumn('state_province', 'text')
        .addColumn('country_code', 'text')
        .addColumn('postal_code', 'text')
        .execute();
      await sql`create index natural_persons_email on natural_persons (${ignoringCase(db, 'email')})`.execute(
        db,
      );

      await db.schema
        .createTable('entity_links')
        .addColumn('legal_entity_id', 'text', (c) =>
          c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
        )
        .addColumn('person_id', 'text', (c) =>
          c.notNull().references('natural_persons.entity_id').onDelete('cascade'),
        )
        .addColumn('relationship', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('entity_links_pk', [
          'legal_entity_id',
          'person_id',
          'relationship',
        ])
        .execute();
      await sql`create unique index entity_links_one_primary on entity_links (legal_entity_id) where relationship = 'Primary Contact'`.execute(
        db,
      );
      await db.schema
        .createIndex('entity_links_person')
        .on('entity_links')
        .column('person_id')
        .execute();

      await db.schema
        .createTable('verifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('legal_entity_id', 'text', (c) =>
          c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
        )
        .addColumn('legal_entity_verification', 'integer', (c) => c.notNull())
        .addColumn('verification_status', 'text', (c) => c.notNull())
        .addColumn('verification_date', 'text', (c) => c.notNull())
        .addColumn('verification_source', 'text', (c) => c.notNull())
        .addColumn('business_statement', 'text', (c) => c.notNull())
        .addColumn('next_review_date', 'text', (c) => c.notNull())
        .addColumn('verification_issues', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('verifications_entity')
        .on('verifications')
        .columns(['legal_entity_id', 'verification_date'])
        .execute();

      await db.schema
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('entity_id', 'text', (c) =>
          c.notNull().references('entities.id').onDelete('cascade'),
        )
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('date_received', 'text', (c) => c.notNull())
        .addColumn('approved', 'integer', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('file_size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('documents_entity')
        .on('documents')
        .columns(['entity_id', 'date_received'])
        .execute();
      await db.schema
        .createTable('document_contents')
        .addColumn('document_id', 'text', (c) =>
          c.primaryKey().references('documents.id').onDelete('cascade'),
        )
        .addColumn('bytes', bytesType(db), (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('api_key_hash', 'text')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await sql`create unique index accounts_username on accounts (${ignoringCase(db, 'username')})`.execute(
        db,
      );
      await sql`create unique index accounts_api_key on accounts (api_key_hash) where api_key_hash is not null`.execute(
        db,
      );

      await db.schema
        .createTable('sessions')
        .addColumn('jti', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();

      await db.schema
        .createTable('client_update_configs')
        .addColumn('config_id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('default_subject', 'text', (c) => c.notNull())
        .addColumn('default_message', 'text', (c) => c.notNull())
        .execute();
      await db
        .insertInto('client_update_configs' as never)
        .values([
          {
            config_id: 1,
            name: 'Request updated information',
            description: 'Asks the client to review and update their company and contact details.',
            default_subject: 'Please review your company information',
            default_message:
              'Hello,\n\nAs part of our regular compliance review we ask you to confirm that the information we hold about your company is still correct, and to update anything that has changed.\n\nThank you.',
          },
          {
            config_id: 2,
            name: 'Request supporting documents',
            description: 'Asks the client to upload new or missing supporting documents.',
            default_subject: 'Supporting documents needed for your compliance review',
            default_message:
              'Hello,\n\nTo complete our compliance review we need up-to-date supporting documents from you, such as a recent proof of address and your certificate of incorporation.\n\nThank you.',
          },
        ] as never)
        .execute();

      await db.schema
        .createTable('client_update_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('entity_id', 'text', (c) =>
          c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
        )
        .addColumn('recipient_id', 'text', (c) => c.notNull())
        .addColumn('recipient_email', 'text', (c) => c.notNull())
        .addColumn('config_id', 'integer', (c) =>
          c.notNull().references('client_update_configs.config_id'),
        )
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'failed')`))
        .addColumn('error', 'text')
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('client_update_requests_entity')
        .on('client_update_requests')
        .columns(['entity_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('app_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_company_name_trigram': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0003_document_chunks': {
    async up(db: Kysely<unknown>) {
      // Bytes in fixed-size pieces, so a download reads one piece at a time instead of the whole file.
      await db.schema
        .createTable('document_chunks')
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('bytes', bytesType(db), (c) => c.notNull())
        .addPrimaryKeyConstraint('document_chunks_pk', ['document_id', 'seq'])
        .execute();
      // The chunk size is frozen here as it was when this migration was written.
      if (engineOf(db) === 'postgres') {
        await sql`insert into document_chunks (document_id, seq, bytes)
          select document_id, seq, substring(bytes from seq * 196608 + 1 for 196608)
          from document_contents, generate_series(0, greatest((length(bytes) - 1) / 196608, 0)) as seq`.execute(
          db,
        );
        await db.schema.dropTable('document_contents').execute();
        return;
      }
      await sql`insert into document_chunks (document_id, seq, bytes)
        with recursive pieces (document_id, seq, size) as (
          select document_id, 0, length(bytes) from document_contents
          union all
          select document_id, seq + 1, size from pieces where (seq + 1) * 196608 < size
        )
        -- substr() of an empty blob is null.
        select pieces.document_id, pieces.seq, coalesce(substr(document_contents.bytes, pieces.seq * 196608 + 1, 196608), x'')
        from pieces join document_contents using (document_id)`.execute(db);
      await db.schema.dropTable('document_contents').execute();
    },
  },
  '0004_legal_entity_search_order': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0005_sign_in_limits': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0006_search_fold': {
    async up(db: Kysely<unknown>) {
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
      await sql`alter table legal_entities add column registration_number_normalised text`.execute(
        db,
      );
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
      await fillComputedColumn(
        db,
        'natural_persons',
        'entity_id',
        'phone',
        'phone_digits',
        digitsOnly,
      );

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
      await sql`create index entities_external_id_folded on entities (external_id_folded)`.execute(
        db,
      );
      await sql`create index natural_persons_email_folded on natural_persons (email_folded)`.execute(
        db,
      );
    },
  },
  '0007_change_counter': {
    async up(db: Kysely<unknown>) {
      // SQLite's PRAGMA data_version tells a reader that another connection wrote; PostgreSQL has
      // no such thing, so every write to what entity answers show bumps this one row, in the
      // writer's own transaction (a reader never sees the new count before the new data).
      if (engineOf(db) !== 'postgres') return;
      await sql`create table change_counter (id integer primary key check (id = 1), version bigint not null)`.execute(
        db,
      );
      await sql`insert into change_counter (id, version) values (1, 0)`.execute(db);
      await sql`create function bump_change_counter() returns trigger language plpgsql as $$
          begin
            update change_counter set version = version + 1 where id = 1;
            return null;
          end $$`.execute(db);
      for (const table of [
        'entities',
        'legal_entities',
        'natural_persons',
        'entity_links',
        'verifications',
        'documents',
      ]) {
        await sql`create trigger ${sql.raw(`${table}_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
            for each statement execute function bump_change_counter()`.execute(db);
      }
    },
  },
  '0008_relayed_client_updates': {
    async up(db: Kysely<unknown>) {
      // The gateway's record of client-update requests it forwarded; entities live upstream, so
      // no foreign key. `position` orders requests made within the same millisecond.
      await db.schema
        .createTable('relayed_client_update_requests')
        .addColumn('position', engineOf(db) === 'postgres' ? 'serial' : 'integer', (c) =>
          c.primaryKey(),
        )
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('recipient_id', 'text', (c) => c.notNull())
        .addColumn('recipient_email', 'text', (c) => c.notNull())
        .addColumn('config_id', 'integer', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'failed')`))
        .addColumn('error', 'text')
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('relayed_client_update_requests_entity')
        .on('relayed_client_update_requests')
        .columns(['entity_id', 'position'])
        .execute();
    },
  },
  '0009_audit_trail_and_roles': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0011_review_queue': {
    async up(db: Kysely<unknown>) {
      // The queue filters by country, which lives in legal_entities or natural_persons; a copy on
      // entities lets one index serve the window, the order, every filter and the counts.
      const postgres = engineOf(db) === 'postgres';
      await sql`alter table entities add column country text`.execute(db);
      await sql`update entities set country = coalesce(
          (select country from legal_entities where legal_entities.entity_id = entities.id),
          (select upper(country_code) from natural_persons where natural_persons.entity_id = entities.id))`.execute(
        db,
      );
      // Every writer inserts the entity first, then its legal-entity or person row: copied here.
      if (postgres) {
        await sql`create function legal_entities_review_country() returns trigger language plpgsql as $$
          begin
            update entities set country = new.country where id = new.entity_id;
            return null;
          end $$`.execute(db);
        await sql`create trigger legal_entities_review_country after insert or update of country on legal_entities
          for each row execute function legal_entities_review_country()`.execute(db);
        await sql`create function natural_persons_review_country() returns trigger language plpgsql as $$
          begin
            update entities set country = upper(new.country_code) where id = new.entity_id;
            return null;
          end $$`.execute(db);
        await sql`create trigger natural_persons_review_country after insert or update of country_code on natural_persons
          for each row execute function natural_persons_review_country()`.execute(db);
      } else {
        for (const [name, event, table, value] of [
          ['legal_entities_review_country_insert', 'insert', 'legal_entities', 'new.country'],
          [
            'legal_entities_review_country_update',
            'update of country',
            'legal_entities',
            'new.country',
          ],
          [
            'natural_persons_review_country_insert',
            'insert',
            'natural_persons',
            'upper(new.country_code)',
          ],
          [
            'natural_persons_review_country_update',
            'update of country_code',
            'natural_persons',
            'upper(new.country_code)',
          ],
        ] as const) {
          await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} begin
            update entities set country = ${sql.raw(value)} where id = new.entity_id;
          end`.execute(db);
        }
      }
      // Soonest first, then id (the keyset), after one filter's value or none; every filter
      // column rides along, so any combination is counted and walked in an index alone.
      // Entities without a review date are not in the queue.
      const columns = ['kind', 'kyc_status', 'risk_level', 'country'];
      for (const leading of [undefined, ...columns]) {
        const keys = [
          ...(leading ? [leading] : []),
          'next_kyc_review',
          'id',
          ...columns.filter((column) => column !== leading),
        ];
        await sql`create index ${sql.raw(leading ? `entities_review_queue_${leading}` : 'entities_review_queue')} on entities (${sql.raw(keys.join(', '))}) where next_kyc_review is not null`.execute(
          db,
        );
      }
    },
  },
  '0013_list_storage': {
    async up(db: Kysely<unknown>) {
      // A list page read 100 entities and their children by random UUID and built their JSON
      // (6 ms at 100,000 entities); each entity's list JSON kept here makes it one join.
      await db.schema
        .createTable('entity_list_records')
        .addColumn('entity_id', 'text', (c) =>
          c.primaryKey().references('entities.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('head', 'text', (c) => c.notNull())
        .addColumn('verifications', 'text')
        .addColumn('documents', 'text')
        .addColumn('tail', 'text', (c) => c.notNull())
        .execute();
      // A page's records are found in list order, next to each other (written in that order).
      await db.schema
        .createIndex('entity_list_records_order')
        .on('entity_list_records')
        .columns(['created_at', 'entity_id'])
        .execute();
      // Any change to what a record shows drops it, whoever writes: a missing record is built on
      // read (correct, slower) until a writer stores it again (refreshListRecords).
      const sources: [table: string, columns: string[]][] = [
        ['entities', ['id']],
        ['legal_entities', ['entity_id']],
        ['natural_persons', ['entity_id']],
        ['entity_links', ['legal_entity_id', 'person_id']],
        ['verifications', ['legal_entity_id']],
        ['documents', ['entity_id']],
      ];
      if (engineOf(db) === 'postgres') {
        await sql`create function forget_entity_list_records() returns trigger language plpgsql as $$
          declare
            i integer;
          begin
            for i in 0 .. tg_nargs - 1 loop
              if tg_op <> 'INSERT' then
                delete from entity_list_records where entity_id = to_jsonb(old) ->> tg_argv[i];
              end if;
              if tg_op <> 'DELETE' then
                delete from entity_list_records where entity_id = to_jsonb(new) ->> tg_argv[i];
              end if;
            end loop;
            return null;
          end $$`.execute(db);
        for (const [table, columns] of sources) {
          await sql`create trigger ${sql.raw(`${table}_forget_list_records`)} after insert or update or delete on ${sql.table(table)}
            for each row execute function forget_entity_list_records(${sql.raw(columns.map((column) => `'${column}'`).join(', '))})`.execute(
            db,
          );
        }
      } else {
        for (const [table, columns] of sources) {
          for (const operation of ['insert', 'update', 'delete'] as const) {
            const rows =
              operation === 'insert' ? ['new'] : operation === 'delete' ? ['old'] : ['old', 'new'];
            const ids = rows
              .flatMap((row) => columns.map((column) => `${row}.${column}`))
              .join(', ');
            await sql`create trigger ${sql.raw(`${table}_forget_list_records_${operation}`)} after ${sql.raw(operation)} on ${sql.table(table)} begin
              delete from entity_list_records where entity_id in (${sql.raw(ids)});
            end`.execute(db);
          }
        }
      }
      // The records are built by 0015: rebuildListRecords writes today's record, kind included.
    },
  },
  '0012_decisions_and_notes': {
    async up(db: Kysely<unknown>) {
      // Who decided on a document, when and why (a rejection needs a reason); null until decided.
      for (const column of ['decided_by', 'decided_at', 'decision_reason']) {
        await db.schema.alterTable('documents').addColumn(column, 'text').execute();
      }

      // A decision held for a second reviewer (four-eyes); kept after it is confirmed or rejected.
      await db.schema
        .createTable('pending_verifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('legal_entity_id', 'text', (c) =>
          c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
        )
        .addColumn('verification', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('requested_by_account', 'text', (c) => c.notNull())
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state in ('pending', 'confirmed', 'rejected')`),
        )
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('reason', 'text')
        .execute();
      // At most one decision waits per entity: the second is refused (409) by this index.
      await sql`create unique index pending_verifications_one_pending on pending_verifications (legal_entity_id) where state = 'pending'`.execute(
        db,
      );

      // Notes on an entity, paged newest first by (at, id).
      await db.schema
        .createTable('notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('entity_id', 'text', (c) =>
          c.notNull().references('entities.id').onDelete('cascade'),
        )
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notes_entity')
        .on('notes')
        .columns(['entity_id', 'at', 'id'])
        .execute();

      // The gateway's own notes: the entity lives upstream, its ID is opaque, so no foreign key.
      await db.schema
        .createTable('gateway_notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('gateway_notes_entity')
        .on('gateway_notes')
        .columns(['entity_id', 'at', 'id'])
        .execute();
    },
  },
  '0010_document_encryption': {
    async up(db: Kysely<unknown>) {
      // Null means stored in the clear: a migration has no key, so the app seals those rows at
      // start-up (server/documents/document-keys.ts).
      await db.schema.alterTable('documents').addColumn('key_id', 'text').execute();
      await db.schema.alterTable('documents').addColumn('wrapped_key', bytesType(db)).execute();
      await db.schema.alterTable('documents').addColumn('nonce', bytesType(db)).execute();
      // Finds what is left in the clear without reading every row; empty once all are sealed.
      await db.schema
        .createIndex('documents_in_the_clear')
        .on('documents')
        .column('id')
        .where(sql.ref('key_id'), 'is', null)
        .execute();
    },
  },
  '0014_sqlite_change_counter': {
    async up(db: Kysely<unknown>) {
      // Every request now writes its audit event, which moves SQLite's data_version and
      // total_changes(): the response cache follows the same counter as on PostgreSQL (0007),
      // bumped only by writes to what entity answers show.
      if (engineOf(db) === 'postgres') return;
      await sql`create table change_counter (id integer primary key check (id = 1), version integer not null)`.execute(
        db,
      );
      await sql`insert into change_counter (id, version) values (1, 0)`.execute(db);
      for (const table of [
        'entities',
        'legal_entities',
        'natural_persons',
        'entity_links',
        'verifications',
        'documents',
      ]) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`create trigger ${sql.raw(`${table}_${event}_changed`)} after ${sql.raw(event)} on ${sql.table(table)}
            begin update change_counter set version = version + 1 where id = 1; end`.execute(db);
        }
      }
    },
  },
  '0015_list_record_kind': {
    async up(db: Kysely<unknown>) {
      // A page of one kind is then one range scan of its records, where joining the entities'
      // keys looked up each record (0.45 against 0.25 ms a page at 100,000 entities).
      await db.schema.alterTable('entity_list_records').addColumn('kind', 'text').execute();
      await sql`update entity_list_records set kind = (select kind from entities where entities.id = entity_list_records.entity_id)`.execute(
        db,
      );
      // SQLite cannot add NOT NULL to a filled column; a record without its kind is only missed
      // by the kind's range scan, so that page is built from the tables, still correct.
      if (engineOf(db) === 'postgres') {
        await sql`alter table entity_list_records alter column kind set not null`.execute(db);
      }
      await db.schema
        .createIndex('entity_list_records_kind_order')
        .on('entity_list_records')
        .columns(['kind', 'created_at', 'entity_id'])
        .execute();
      // Builds the records 0013 made room for (moved here: the rebuild writes the kind) and any
      // dropped since. A later change to the record columns must move this call again.
      await rebuildListRecords(db);
    },
  },
  '0016_company_name_order': {
    async up(db: Kysely<unknown>) {
      // PostgreSQL's planner reads pg_trgm's GIN index for the LIKE itself (0006).
      if (engineOf(db) === 'postgres') return;
      // The trigram index moves to a narrow copy of the names numbered in list order, so a search
      // reads its matches oldest first and stops at the 500th, instead of looking up and sorting
      // every candidate (a cost that grew as the square root of the entities).
      await replaceNameIndexWithListOrderCopy(db, {
        table: 'legal_entities',
        oldIndex: 'legal_entities_company_name_fts',
        copy: 'legal_entity_name_order',
        columns: ['company_name_folded'],
      });
      await renumberNameOrder(db, 'company');
    },
  },
  '0017_person_name_order': {
    async up(db: Kysely<unknown>) {
      if (engineOf(db) === 'postgres') return;
      // Natural persons' names as 0016 did company names: read in list order, stopping at 500.
      await replaceNameIndexWithListOrderCopy(db, {
        table: 'natural_persons',
        oldIndex: 'natural_persons_name_fts',
        copy: 'natural_person_name_order',
        columns: ['first_name_folded', 'last_name_folded'],
      });
      await renumberNameOrder(db, 'person');
    },
  },
  '0018_short_name_grams': {
    async up(db: Kysely<unknown>) {
      if (engineOf(db) === 'postgres') return;
      // A fragment of one or two characters has no trigram: it walked the search-order index,
      // which reads every name when fewer than 500 match (`DM`: 14 ms at 100,000, growing with the data).
      await sql`create table name_gram_offsets (n integer primary key)`.execute(db);
      await sql`insert into name_gram_offsets (n)
        with recursive offsets (n) as (select 1 union all select n + 1 from offsets where n < ${NAME_GRAM_OFFSETS})
        select n from offsets`.execute(db);
      await addNameGramIndex(db, COMPANY_NAME_COPY, 'legal_entity_name_order_grams', nameGrams);
      await addNameGramIndex(db, PERSON_NAME_COPY, 'natural_person_name_order_grams', nameGrams);
    },
  },
  '0019_name_quadgrams': {
    async up(db: Kysely<unknown>) {
      if (engineOf(db) === 'postgres') return;
      // A fragment whose trigrams are each common but rare together ("ics Ltd") read every name
      // holding them when fewer than 500 matched: at a million, 3.4 ms for `per Con`.
      for (const [names, index] of [
        [COMPANY_NAME_COPY, 'legal_entity_name_order_quadgrams'],
        [PERSON_NAME_COPY, 'natural_person_name_order_quadgrams'],
      ] as const) {
        await addNameGramIndex(db, names, index, nameQuadgrams);
        await sql`insert into ${sql.raw(index)} (${sql.raw(index)}) values ('optimize')`.execute(
          db,
        );
      }
    },
  },
  '0020_postgres_name_grams': {
    async up(db: Kysely<unknown>) {
      // SQLite has read one- and two-character fragments from its n-gram indexes since 0018.
      if (engineOf(db) === 'sqlite') return;
      // pg_trgm has no trigram for them: a search walked the search-order index, which reads every
      // name when fewer than 500 hold the fragment (a rare pair: 35-80 ms at 100,000 legal entities).
      // Each character, then each pair (repeats are harmless to the index). PL/pgSQL: the walk
      // tests it on every name LIKE lets through, and an SQL function with a subquery cost 4x as much.
      await sql`create function name_grams(name text) returns text[] language plpgsql immutable strict parallel safe as $$
        declare
          characters text[] := string_to_array(name, null);
          grams text[] := characters;
        begin
          for i in 1 .. coalesce(array_length(characters, 1), 0) - 1 loop
            grams := grams || (characters[i] || characters[i + 1]);
          end loop;
          return grams;
        end $$`.execute(db);
      for (const [table, column] of [
        ['legal_entities', 'company_name_folded'],
        ['natural_persons', 'first_name_folded'],
        ['natural_persons', 'last_name_folded'],
      ] as const) {
        await sql`create index ${sql.raw(`${table}_${column.replace('_folded', '')}_grams`)} on ${sql.table(table)} using gin (name_grams(${sql.ref(column)}))`.execute(
          db,
        );
      }
      // The planner chooses between this index and the walk by the pairs' frequencies.
      await sql`analyze legal_entities, natural_persons`.execute(db);
    },
  },
  '0021_company_quadgrams_without_columns': {
    async up(db: Kysely<unknown>) {
      if (engineOf(db) === 'postgres') return;
      // Company names are one column, so 0019's index needs no column lists: 2.6 times smaller, and
      // a company-name search at a million took about 15% less CPU (docs/performance.md, ninth pass).
      const index = 'legal_entity_name_order_quadgrams';
      await dropIndexAndTriggers(db, index);
      await addNameGramIndex(db, COMPANY_NAME_COPY, index, nameQuadgrams, 'none');
      await sql`insert into ${sql.raw(index)} (${sql.raw(index)}) values ('optimize')`.execute(db);
    },
  },
  '0022_accent_folded_search': {
    async up(db: Kysely<unknown>) {
      // Search now also ignores accents, special letters and typographic punctuation (foldForSearch):
      // every stored folded column is recomputed. On SQLite the name copies, their trigram, n-gram
      // and quadgram indexes follow through their triggers; on PostgreSQL the GIN indexes do.
      const postgres = engineOf(db) === 'postgres';
      const folded = (
        table: string,
        key: string,
        columns: readonly (readonly [source: string, target: string])[],
      ) =>
        recomputeColumns<{ id: string } & Record<string, string | null>>(
          db,
          table,
          key,
          columns.map(([, target]) => target),
          async (after, limit) =>
            (
              await sql<
                { id: string } & Record<string, string | null>
              >`select ${sql.ref(key)} as id, ${sql.join(
                columns.flatMap(([source, target]) => [sql.ref(source), sql.ref(target)]),
              )} from ${sql.table(table)} ${afterKey(key, after, limit)}`.execute(db)
            ).rows,
          (row) =>
            Object.fromEntries(
              columns.map(([source, target]) => {
                const text = row[source];
                return [target, text === null || text === undefined ? null : foldForSearch(text)];
              }),
            ),
        );
      await folded('entities', 'id', [['external_id', 'external_id_folded']]);
      const companies = await folded('legal_entities', 'entity_id', [
        ['company_name', 'company_name_folded'],
      ]);
      const people = await folded('natural_persons', 'entity_id', [
        ['email', 'email_folded'],
        ['first_name', 'first_name_folded'],
        ['last_name', 'last_name_folded'],
      ]);

      // Phones are searched by their international digits or national number, read per country.
      await sql`alter table legal_entities add column company_phone_international_digits text`.execute(
        db,
      );
      await sql`alter table legal_entities add column company_phone_national_digits text`.execute(
        db,
      );
      await sql`alter table natural_persons add column phone_international_digits text`.execute(db);
      await sql`alter table natural_persons add column phone_national_digits text`.execute(db);
      type PhoneRow = { id: string; phone: string | null; country: string | null } & Record<
        string,
        string | null
      >;
      const phoneColumns = (row: PhoneRow, prefix: string) => {
        const digits = phoneSearchDigits(row.phone, row.country);
        return {
          [`${prefix}_international_digits`]: digits.international,
          [`${prefix}_national_digits`]: digits.national,
        };
      };
      await recomputeColumns<PhoneRow>(
        db,
        'legal_entities',
        'entity_id',
        ['company_phone_international_digits', 'company_phone_national_digits'],
        async (after, limit) =>
          (
            await sql<PhoneRow>`select entity_id as id, company_phone as phone, country,
              company_phone_international_digits, company_phone_national_digits
              from legal_entities ${afterKey('entity_id', after, limit)}`.execute(db)
          ).rows,
        (row) => phoneColumns(row, 'company_phone'),
      );
      // A primary contact created with its company has no country code: the company's is used.
      await recomputeColumns<PhoneRow>(
        db,
        'natural_persons',
        'entity_id',
        ['phone_international_digits', 'phone_national_digits'],
        async (after, limit) =>
          (
            await sql<PhoneRow>`select entity_id as id, phone, coalesce(country_code, (
                select legal_entities.country from entity_links
                  join legal_entities on legal_entities.entity_id = entity_links.legal_entity_id
                  where entity_links.person_id = natural_persons.entity_id
                    and entity_links.relationship = ${PRIMARY_CONTACT}
                  order by entity_links.legal_entity_id limit 1)) as country,
              phone_international_digits, phone_national_digits
              from natural_persons ${afterKey('entity_id', after, limit)}`.execute(db)
          ).rows,
        (row) => phoneColumns(row, 'phone'),
      );
      await sql`drop index legal_entities_phone`.execute(db);
      await sql`drop index natural_persons_phone`.execute(db);
      for (const [table, prefix] of [
        ['legal_entities', 'company_phone'],
        ['natural_persons', 'phone'],
      ] as const) {
        for (const form of ['international', 'national'] as const) {
          await sql`create index ${sql.raw(`${table}_phone_${form}`)} on ${sql.table(table)} (${sql.raw(`${prefix}_${form}_digits`)})`.execute(
            db,
          );
        }
      }

      if (postgres) {
        await sql`analyze legal_entities, natural_persons`.execute(db);
        return;
      }
      // The triggers left the rewritten names in new segments of each index: merged, as a renumbering does.
      for (const [changed, indexes] of [
        [
          companies,
          [
            'legal_entity_name_order_fts',
            'legal_entity_name_order_grams',
            'legal_entity_name_order_quadgrams',
          ],
        ],
        [
          people,
          [
            'natural_person_name_order_fts',
            'natural_person_name_order_grams',
            'natural_person_name_order_quadgrams',
          ],
        ],
      ] as const) {
        if (changed === 0) continue;
        for (const index of indexes) {
          await sql`insert into ${sql.raw(index)} (${sql.raw(index)}) values ('optimize')`.execute(
            db,
          );
        }
      }
    },
  },
  '0023_next_review_from_newest_verification': {
    async up(db: Kysely<unknown>) {
      // The seed took the earliest review date and create the earliest future one; decisions.md
      // now says the newest verification decides both kycStatus and nextKYCReview.
      const changed = await repairCurrentVerifications(db);
      await sql`insert into app_settings (key, value) values (${REPAIRED_CURRENT_VERIFICATIONS_KEY}, ${String(changed)})
        on conflict (key) do update set value = excluded.value`.execute(db);
      // The undated window (entities without a next review) walks and counts in an index alone, as
      // the dated windows do in 0011's: one without a leading filter, one per filter.
      const columns = ['kind', 'kyc_status', 'risk_level', 'country'];
      for (const leading of [undefined, ...columns]) {
        // next_kyc_review (always null here) rides along so that a page reads the index alone.
        const keys = [
          ...(leading ? [leading] : []),
          'id',
          ...columns.filter((column) => column !== leading),
          'next_kyc_review',
        ];
        await sql`create index ${sql.raw(leading ? `entities_review_undated_${leading}` : 'entities_review_undated')} on entities (${sql.raw(keys.join(', '))}) where next_kyc_review is null`.execute(
          db,
        );
      }
    },
  },
  '0024_person_reviews_and_risk_holds': {
    async up(db: Kysely<unknown>) {
      // Held decisions now concern any entity (a person's review, a risk change), so the table is
      // rebuilt with its foreign key on entities and a kind; the rows keep their ids and states.
      await db.schema
        .createTable('pending_decisions_rebuilt')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('legal_entity_id', 'text', (c) =>
          c.notNull().references('entities.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) =>
          c
            .notNull()
            .defaultTo('verification')
            .check(sql`kind in ('verification', 'person-review', 'risk-level')`),
        )
        .addColumn('verification', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('requested_by_account', 'text', (c) => c.notNull())
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state in ('pending', 'confirmed', 'rejected')`),
        )
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('reason', 'text')
        .execute();
      await sql`insert into pending_decisions_rebuilt (id, legal_entity_id, kind, verification, rule, requested_by, requested_by_account, requested_at, state, decided_by, decided_at, reason)
        select id, legal_entity_id, 'verification', verification, rule, requested_by, requested_by_account, requested_at, state, decided_by, decided_at, reason from pending_verifications`.execute(
        db,
      );
      await db.schema.dropTable('pending_verifications').execute();
      await db.schema
        .alterTable('pending_decisions_rebuilt')
        .renameTo('pending_verifications')
        .execute();
      // Still at most one waiting decision per entity, whatever its kind.
      await sql`create unique index pending_verifications_one_pending on pending_verifications (legal_entity_id) where state = 'pending'`.execute(
        db,
      );

      // A natural person's review outcomes; a held one stays `pending` until confirmed or rejected.
      await db.schema
        .createTable('person_reviews')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('entity_id', 'text', (c) =>
          c.notNull().references('natural_persons.entity_id').onDelete('cascade'),
        )
        .addColumn('kyc_status', 'text', (c) => c.notNull())
        .addColumn('next_kyc_review', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state in ('applied', 'pending', 'rejected')`),
        )
        .execute();
      await db.schema
        .createIndex('person_reviews_entity')
        .on('person_reviews')
        .columns(['entity_id', 'at', 'id'])
        .execute();
    },
  },
  '0025_gateway_revoked_tokens': {
    async up(db: Kysely<unknown>) {
      // Gateway mode: tokens signed out here, refused until they expire although the identity
      // service, which has no sign-out, would still confirm them.
      await db.schema
        .createTable('gateway_revoked_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0027_client_response_states': {
    async up(db: Kysely<unknown>) {
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
    },
  },
};

/** Where 0023 leaves how many legal entities it repaired, for the start-up log and an operator. */
const REPAIRED_CURRENT_VERIFICATIONS_KEY = 'migration.0023_next_review_from_newest_verification';

/** Legal entities read per batch by the repair of 0023. */
const REPAIR_BATCH = 1000;

/**
 * Sets each legal entity's kyc_status and next_kyc_review to its newest verification's (the one
 * rule, currentVerificationOf) where they differ; returns how many entities changed. The entity
 * triggers drop their list records and bump the change counter; the records are built again here.
 */
async function repairCurrentVerifications(db: Kysely<unknown>): Promise<number> {
  let after = '';
  let changed = 0;
  for (;;) {
    const { rows: entities } = await sql<{
      id: string;
      kyc_status: string;
      next_kyc_review: string | null;
    }>`select id, kyc_status, next_kyc_review from entities
      where kind = 'legal' and id > ${after} order by id limit ${REPAIR_BATCH}`.execute(db);
    const last = entities.at(-1);
    if (!last) break;
    after = last.id;
    // Newest last: verification date, then the order recorded (created_at; id for older equal ones).
    const { rows: verifications } = await sql<{
      legal_entity_id: string;
      verification_date: string;
      verification_status: string;
      next_review_date: string;
    }>`select legal_entity_id, verification_date, verification_status, next_review_date
      from verifications where legal_entity_id in (${sql.join(entities.map((entity) => entity.id))})
      order by legal_entity_id, verification_date, created_at, id`.execute(db);
    const byEntity = new Map<string, DatedVerification[]>();
    for (const row of verifications) {
      const list = byEntity.get(row.legal_entity_id) ?? [];
      list.push({
        verificationDate: row.verification_date,
        verificationStatus: row.verification_status,
        nextReviewDate: row.next_review_date,
      });
      byEntity.set(row.legal_entity_id, list);
    }
    const repairs = entities.flatMap((entity) => {
      const current = currentVerificationOf(byEntity.get(entity.id) ?? []);
      if (!current?.kycStatus) return [];
      const agrees =
        current.kycStatus === entity.kyc_status && current.nextKYCReview === entity.next_kyc_review;
      return agrees ? [] : [{ id: entity.id, ...current, kycStatus: current.kycStatus }];
    });
    if (repairs.length === 0) continue;
    const values = sql.join(
      repairs.map((repair) => sql`(${repair.id}, ${repair.kycStatus}, ${repair.nextKYCReview})`),
    );
    await sql`with repaired (id, kyc_status, next_kyc_review) as (values ${values})
      update entities set kyc_status = repaired.kyc_status, next_kyc_review = repaired.next_kyc_review
      from repaired where entities.id = repaired.id`.execute(db);
    // Today's list record, as 0015 builds them (a later change to the record columns must move this).
    await refreshListRecords(
      db,
      repairs.map((repair) => repair.id),
    );
    changed += repairs.length;
  }
  return changed;
}

/** What a migration of this run has to tell the operator: a message and its details. */
export interface MigrationNote {
  migration: string;
  message: string;
  detail: Record<string, unknown>;
}

/** Notes of migrations that report something, read after they ran. */
const migrationNotes: Record<string, (db: Kysely<unknown>) => Promise<MigrationNote>> = {
  async '0023_next_review_from_newest_verification'(db) {
    const { rows } = await sql<{
      value: string;
    }>`select value from app_settings where key = ${REPAIRED_CURRENT_VERIFICATIONS_KEY}`.execute(
      db,
    );
    const changed = Number(rows[0]?.value ?? 0);
    return {
      migration: '0023_next_review_from_newest_verification',
      message: `Migration 0023 set the status and next review of ${String(changed)} legal entities to their newest verification's.`,
      detail: { changed },
    };
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/**
 * Brings the database to the newest schema; throws with the failing migration's name. Returns the
 * notes of the migrations this call applied (a data repair says how many rows it changed).
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<MigrationNote[]> {
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  const notes: MigrationNote[] = [];
  for (const result of results ?? []) {
    const note = migrationNotes[result.migrationName];
    if (result.status === 'Success' && note) notes.push(await note(db));
  }
  return notes;
}

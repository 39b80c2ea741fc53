import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { foldForSearch } from '../../contract/search-text.ts';
import { documentKeysOf, masterKeyOf } from '../documents/document-crypto.ts';
import { entityDerivedData } from '../entities/read-model/derived-data-repository.ts';
import { pendingDerivedData, rebuildDerivedData } from '../entities/read-model/derived-data.ts';
import { legalEntitySearchQuery, readModelRepository } from '../entities/read-model/repository.ts';
import { insertLegalEntity, storedDocumentBytes } from '../testing/fixtures.ts';
import { checkFtsIndex } from '../testing/fts-integrity.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest, migrationProvider } from './migrate.ts';
import type { Database } from './schema.ts';

let dataDir: string;

const TEST_KEYS = documentKeysOf(masterKeyOf(crypto.randomBytes(32), 'a test key'));

/** A legal entity as the first schema holds it, for databases not yet migrated to the newest one. */
async function insertEarlyLegalEntity(
  db: Kysely<Database>,
  row: {
    createdAt: string;
    companyName?: string;
    registrationNumber?: string;
    externalId?: string;
  },
): Promise<string> {
  const id = crypto.randomUUID();
  await sql`insert into entities (id, kind, created_at, external_id, kyc_status, risk_level, last_update, tags)
    values (${id}, 'legal', ${row.createdAt}, ${row.externalId ?? null}, 'New', 'Low', ${row.createdAt}, '[]')`.execute(
    db,
  );
  await sql`insert into legal_entities (entity_id, company_name, registration_number, country)
    values (${id}, ${row.companyName ?? `Early ${id}`}, ${row.registrationNumber ?? id}, 'GB')`.execute(
    db,
  );
  return id;
}

/** A new SQLite file under `dataDir` with a migrator on it, closed after `work`. */
async function withMigrator(
  fileName: string,
  work: (db: Kysely<Database>, migrator: Migrator) => Promise<void>,
  prepare: (sqlite: SQLite.Database) => void = () => undefined,
): Promise<void> {
  const sqlite = new SQLite(path.join(dataDir, fileName));
  prepare(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    await work(db, new Migrator({ db, provider: migrationProvider }));
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-migrations-'));
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('0003_document_chunks', () => {
  it('moves every stored document into pieces that join back to the same bytes', async () => {
    await withMigrator(
      'chunks.sqlite',
      async (db, migrator) => {
        const before = await migrator.migrateTo('0002_company_name_trigram');
        expect(before.error).toBeUndefined();
        const piece = 196_608;
        const sizes = [0, 1, piece - 1, piece, piece + 1, 3 * piece + 5, 1_000_000];
        const files = sizes.map((size) => ({
          id: crypto.randomUUID(),
          bytes: crypto.randomBytes(size),
        }));
        for (const file of files) {
          await sql`insert into documents (id, entity_id, file_name, type, description, date_received, approved, mime_type, file_size, sha256)
          values (${file.id}, 'gone', 'f.bin', 'Other', null, '2026-01-01 00:00:00', 0, 'application/octet-stream', ${file.bytes.length}, '')`.execute(
            db,
          );
          await sql`insert into document_contents (document_id, bytes) values (${file.id}, ${file.bytes})`.execute(
            db,
          );
        }

        await migrateToLatest(db as unknown as Kysely<unknown>);

        for (const file of files) {
          // Still in the clear after the migrations: the app seals them when it starts.
          const bytes = await storedDocumentBytes(db, file.id, TEST_KEYS);
          expect(bytes.equals(file.bytes)).toBe(true);
          const pieces = await db
            .selectFrom('document_chunks')
            .select(['seq', sql<number>`length(bytes)`.as('size')])
            .where('document_id', '=', file.id)
            .orderBy('seq')
            .execute();
          expect(pieces.map((row) => row.seq)).toEqual(pieces.map((_, index) => index));
          expect(pieces.length).toBe(Math.max(1, Math.ceil(file.bytes.length / piece)));
          expect(pieces.slice(0, -1).every((row) => row.size === piece)).toBe(true);
        }
        const tables = await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name = 'document_contents'`.execute(
          db,
        );
        expect(tables.rows).toEqual([]);
      },
      // Documents without their entities: only the bytes' move is under test here.
      (sqlite) => sqlite.pragma('foreign_keys = OFF'),
    );
  });
});

describe('0004_legal_entity_search_order', () => {
  it('copies the creation time into legal entities, keeps copying it, and searches in that index', async () => {
    await withMigrator('order.sqlite', async (db, migrator) => {
      expect((await migrator.migrateTo('0003_document_chunks')).error).toBeUndefined();
      const before = await insertEarlyLegalEntity(db, { createdAt: '2024-01-02T03:04:05.000Z' });

      expect((await migrator.migrateTo('0004_legal_entity_search_order')).error).toBeUndefined();
      const after = await insertEarlyLegalEntity(db, { createdAt: '2025-06-07T08:09:10.000Z' });

      const rows = await db
        .selectFrom('legal_entities')
        .select(['entity_id', 'created_at'])
        .orderBy('created_at')
        .execute();
      expect(rows).toEqual([
        { entity_id: before, created_at: '2024-01-02T03:04:05.000Z' },
        { entity_id: after, created_at: '2025-06-07T08:09:10.000Z' },
      ]);
      const plan = await sql<{
        detail: string;
      }>`explain query plan select entity_id from legal_entities where lower(company_name) like '%x%' order by created_at, entity_id limit 500`.execute(
        db,
      );
      expect(plan.rows.map((row) => row.detail)).toEqual([
        'SCAN legal_entities USING COVERING INDEX legal_entities_search_order',
      ]);
    });
  });
});

describe('0006_search_fold', () => {
  it('fills the folded copies of existing rows, indexes them, and refuses rows without them', async () => {
    await withMigrator('fold.sqlite', async (db, migrator) => {
      expect((await migrator.migrateTo('0004_legal_entity_search_order')).error).toBeUndefined();
      const ecole = await insertEarlyLegalEntity(db, {
        createdAt: '2024-01-01T00:00:00.000Z',
        companyName: 'ÉCOLE ÖSTERREICH',
        registrationNumber: 'FN 123456 a',
        externalId: 'CRM-Ä1',
      });
      const strasse = await insertEarlyLegalEntity(db, {
        createdAt: '2024-02-01T00:00:00.000Z',
        companyName: 'Hauptstraße Großhandel GmbH',
        registrationNumber: 'HRB-Straße/12.3',
      });
      const personId = crypto.randomUUID();
      await sql`insert into entities (id, kind, created_at, kyc_status, risk_level, last_update, tags)
        values (${personId}, 'person', '2024-03-01T00:00:00.000Z', 'New', 'Low', '2024-03-01T00:00:00.000Z', '[]')`.execute(
        db,
      );
      await sql`insert into natural_persons (entity_id, first_name, last_name, email, phone)
        values (${personId}, 'Zoë', 'Ängström', 'Zoe.Angstrom@Example.COM', '+46 (8) 123-45')`.execute(
        db,
      );

      await migrateToLatest(db as unknown as Kysely<unknown>);

      // 0006 folded with the fold of its day (accents kept); 0022 asked for today's, after.
      const foldedBy0006 = await db
        .selectFrom('legal_entities')
        .select('company_name_folded')
        .where('entity_id', '=', ecole)
        .executeTakeFirstOrThrow();
      expect(foldedBy0006.company_name_folded).toBe('école österreich');
      expect(await pendingDerivedData(db)).toEqual([
        'search-columns',
        'company-name-order',
        'person-name-order',
        'list-records',
      ]);
      await rebuildDerivedData(db, entityDerivedData);
      expect(await pendingDerivedData(db)).toEqual([]);

      const legal = await db
        .selectFrom('legal_entities')
        .select(['entity_id', 'company_name_folded', 'registration_number_normalised'])
        .orderBy('created_at')
        .execute();
      expect(legal).toEqual([
        {
          entity_id: ecole,
          // Folded as search folds now, accents removed (0022).
          company_name_folded: 'ecole osterreich',
          registration_number_normalised: 'fn123456a',
        },
        {
          entity_id: strasse,
          company_name_folded: 'hauptstrasse grosshandel gmbh',
          registration_number_normalised: 'hrbstrasse123',
        },
      ]);
      const entity = await db
        .selectFrom('entities')
        .select(['external_id_folded'])
        .where('id', '=', ecole)
        .executeTakeFirstOrThrow();
      expect(entity.external_id_folded).toBe(foldForSearch('CRM-Ä1'));
      const person = await db
        .selectFrom('natural_persons')
        .select([
          'email_folded',
          'first_name_folded',
          'last_name_folded',
          'phone_digits',
          'created_at',
        ])
        .where('entity_id', '=', personId)
        .executeTakeFirstOrThrow();
      expect(person).toEqual({
        email_folded: 'zoe.angstrom@example.com',
        first_name_folded: 'zoe',
        last_name_folded: 'angstrom',
        phone_digits: '46812345',
        created_at: '2024-03-01T00:00:00.000Z',
      });

      const repository = readModelRepository(db);
      for (const plan of ['best', 'walk'] as const) {
        for (const [text, id] of [
          ['école österreich', ecole],
          ['ÉCOLE ÖSTERREICH', ecole],
          ['STRASSE', strasse],
          ['großhandel', strasse],
          // Too short for a trigram: the n-gram index (0018), filled from the names already there.
          ['ÉC', ecole],
          ['ß', strasse],
        ] as const) {
          expect(
            await repository.searchLegalEntities({ companyNameContains: text }, plan),
            `${text}, ${plan}`,
          ).toEqual([id]);
        }
      }
      // The names 0016 asked for were numbered in list order: none is late.
      const { rows: order } = await sql<{
        entity_id: string;
      }>`select entity_id from legal_entity_name_order where position not in (select position from legal_entity_name_order_late) order by position`.execute(
        db,
      );
      expect(order.map((row) => row.entity_id)).toEqual([ecole, strasse]);
      for (const plan of ['best', 'walk'] as const) {
        expect(
          await repository.searchNaturalPersons(
            { firstNameContains: 'ZOË', lastNameContains: 'ÄNGSTRÖM' },
            plan,
          ),
        ).toEqual([personId]);
        expect(
          await repository.searchNaturalPersons(
            { firstNameContains: 'Ë', lastNameContains: 'äN' },
            plan,
          ),
        ).toEqual([personId]);
      }
      for (const index of [
        'legal_entity_name_order_fts',
        'natural_person_name_order_fts',
        'legal_entity_name_order_grams',
        'natural_person_name_order_grams',
        'legal_entity_name_order_quadgrams',
        'natural_person_name_order_quadgrams',
      ]) {
        await expect(checkFtsIndex(db, index), index).resolves.toBeDefined();
      }
      // 0021: the company names' runs of four are kept without column lists.
      const { rows: definition } = await sql<{
        sql: string;
      }>`select sql from sqlite_master where name = 'legal_entity_name_order_quadgrams'`.execute(
        db,
      );
      expect(definition[0]?.sql).toContain("detail='none'");
      expect(
        await queryPlanOf(db, legalEntitySearchQuery(db, { companyNameContains: 'x' })),
      ).toEqual(['SCAN legal_entities USING COVERING INDEX legal_entities_search_order']);

      await expect(
        insertEarlyLegalEntity(db, { createdAt: '2025-01-01T00:00:00.000Z' }),
      ).rejects.toThrow(/company_name_folded/);
      // The unique index now holds the normalised number.
      await expect(
        insertLegalEntity(db, {
          legalEntity: { registration_number: 'FN-123456-A', country: 'GB' },
        }),
      ).rejects.toThrow(/UNIQUE constraint failed: legal_entities.registration_number_normalised/);
    });
  });
});

describe('0006_search_fold on registration numbers that become one', () => {
  it('stops the start with the numbers and entity ids to correct, and leaves the database as it was', async () => {
    const directory = path.join(dataDir, 'duplicates');
    await fs.mkdir(directory);
    const file = path.join(directory, 'kyc-desk.sqlite');
    const early = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(file) }),
    });
    const migrator = new Migrator({ db: early, provider: migrationProvider });
    expect((await migrator.migrateTo('0004_legal_entity_search_order')).error).toBeUndefined();
    const first = await insertEarlyLegalEntity(early, {
      createdAt: '2024-01-01T00:00:00.000Z',
      registrationNumber: 'ABC-1',
    });
    const second = await insertEarlyLegalEntity(early, {
      createdAt: '2024-01-02T00:00:00.000Z',
      registrationNumber: 'abc 1',
    });
    await early.destroy();

    const opening = openDatabase(directory);
    await expect(opening).rejects.toThrow(/0006_search_fold/);
    await expect(opening).rejects.toThrow(`ABC-1 / abc 1 in GB (${first}, ${second})`);

    const after = new SQLite(file, { readonly: true });
    try {
      const columns = after.prepare(`select name from pragma_table_info('legal_entities')`).all();
      expect(columns).not.toContainEqual({ name: 'company_name_folded' });
      const newest = after
        .prepare('select name from kysely_migration order by name desc limit 1')
        .get();
      expect(newest).toEqual({ name: '0004_legal_entity_search_order' });
    } finally {
      after.close();
    }
  });
});

/** The columns 0022 adds, which the fixture writes. */
const PHONE_COLUMNS = [
  ['legal_entities', 'company_phone_international_digits'],
  ['legal_entities', 'company_phone_national_digits'],
  ['natural_persons', 'phone_international_digits'],
  ['natural_persons', 'phone_national_digits'],
] as const;

describe('0015_list_record_kind', () => {
  it('gives the stored records their kind, and the start-up step builds the missing ones', async () => {
    await withMigrator('list-kind.sqlite', async (db, migrator) => {
      expect((await migrator.migrateTo('0014_sqlite_change_counter')).error).toBeUndefined();
      // The fixture writes the newest rows, with the phone columns 0022 adds.
      for (const [table, column] of PHONE_COLUMNS) {
        await sql`alter table ${sql.table(table)} add column ${sql.ref(column)} text`.execute(db);
      }
      const { legalEntityId, primaryContactId, directorId } = await insertLegalEntity(db);
      // A record as 0013 stored it, without a kind; the others are missing.
      await sql`insert into entity_list_records (entity_id, created_at, head, tail)
        select id, created_at, '{"stored":true}', '' from entities where id = ${legalEntityId}`.execute(
        db,
      );

      expect((await migrator.migrateTo('0015_list_record_kind')).error).toBeUndefined();
      const migrated = await db
        .selectFrom('entity_list_records')
        .select(['entity_id', 'kind', 'head'])
        .execute();
      expect(migrated).toEqual([
        { entity_id: legalEntityId, kind: 'legal', head: '{"stored":true}' },
      ]);
      // The fixture's columns go, so that 0022 adds them as it would.
      for (const [table, column] of PHONE_COLUMNS) {
        await sql`alter table ${sql.table(table)} drop column ${sql.ref(column)}`.execute(db);
      }
      await migrateToLatest(db as unknown as Kysely<unknown>);
      expect(await pendingDerivedData(db)).toContain('list-records');
      const notes = await rebuildDerivedData(db, entityDerivedData);
      // The stored record too: filling its phone columns (0022's request, first) dropped it.
      expect(notes.find((note) => note.derivedData === 'list-records')).toMatchObject({
        requestedBy: '0015_list_record_kind',
        detail: { changed: 3 },
      });
      const records = await db
        .selectFrom('entity_list_records')
        .select(['entity_id', 'kind', 'head'])
        .execute();
      const byId = new Map(records.map((record) => [record.entity_id, record]));
      expect(records).toHaveLength(3);
      expect(byId.get(legalEntityId)?.kind).toBe('legal');
      expect(byId.get(legalEntityId)?.head).toContain(`"id":"${legalEntityId}"`);
      for (const personId of [primaryContactId, directorId]) {
        expect(byId.get(personId)?.kind).toBe('person');
        expect(JSON.parse(byId.get(personId)?.head ?? '{}')).toMatchObject({
          id: personId,
          type: 'Natural Person',
        });
      }
      // Done once: a second start finds nothing asked for.
      expect(await rebuildDerivedData(db, entityDerivedData)).toEqual([]);
    });
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { insertLegalEntity, storedDocumentBytes } from '../testing/fixtures.ts';
import { migrateToLatest, migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-migrations-'));
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('0003_document_chunks', () => {
  it('moves every stored document into pieces that join back to the same bytes', async () => {
    const sqlite = new SQLite(path.join(dataDir, 'chunks.sqlite'));
    // Documents without their entities: only the bytes' move is under test here.
    sqlite.pragma('foreign_keys = OFF');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
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
        expect((await storedDocumentBytes(db, file.id)).equals(file.bytes)).toBe(true);
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
    } finally {
      await db.destroy();
    }
  });
});

describe('0004_legal_entity_search_order', () => {
  it('copies the creation time into legal entities, keeps copying it, and searches in that index', async () => {
    const sqlite = new SQLite(path.join(dataDir, 'order.sqlite'));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0003_document_chunks')).error).toBeUndefined();
      const before = await insertLegalEntity(db, {
        entity: { created_at: '2024-01-02T03:04:05.000Z' },
      });

      await migrateToLatest(db as unknown as Kysely<unknown>);
      const after = await insertLegalEntity(db, {
        entity: { created_at: '2025-06-07T08:09:10.000Z' },
      });

      const rows = await db
        .selectFrom('legal_entities')
        .select(['entity_id', 'created_at'])
        .orderBy('created_at')
        .execute();
      expect(rows).toEqual([
        { entity_id: before.legalEntityId, created_at: '2024-01-02T03:04:05.000Z' },
        { entity_id: after.legalEntityId, created_at: '2025-06-07T08:09:10.000Z' },
      ]);
      const plan = await sql<{
        detail: string;
      }>`explain query plan select entity_id from legal_entities where lower(company_name) like '%x%' order by created_at, entity_id limit 500`.execute(
        db,
      );
      expect(plan.rows.map((row) => row.detail)).toEqual([
        'SCAN legal_entities USING COVERING INDEX legal_entities_search_order',
      ]);
    } finally {
      await db.destroy();
    }
  });
});

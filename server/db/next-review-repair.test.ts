import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import { KYC_STATUSES } from '../../contract/entities.ts';
import { entityDerivedData } from '../entities/read-model/derived-data-repository.ts';
import { rebuildDerivedData } from '../entities/read-model/derived-data.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { migrateToLatest, migrationProvider } from './migrate.ts';
import type { Database } from './schema.ts';

/** A verification of a generated history; `created` orders the ones of one date as recorded. */
interface HistoryVerification {
  date: string;
  status: (typeof KYC_STATUSES)[number];
  nextReview: string;
}

const dateArbitrary = fc
  .date({ min: new Date('2023-01-01'), max: new Date('2026-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** A history of 0 to 5 verifications; few distinct dates, so that ties on one day are common. */
const historyArbitrary = fc.array(
  fc.record({
    date: fc.constantFrom('2024-03-01', '2025-06-15', '2025-06-16', '2026-01-31'),
    status: fc.constantFrom(...KYC_STATUSES),
    nextReview: dateArbitrary,
  }),
  { maxLength: 5 },
);

let dataDir: string;
let databaseUrl: string | undefined;
let db: Kysely<Database>;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-repair-'));
  databaseUrl = await newTestDatabaseUrl();
  db = new Kysely<Database>({
    dialect:
      databaseUrl === undefined
        ? new SqliteDialect({ database: new SQLite(path.join(dataDir, 'repair.sqlite')) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 2 }) }),
  });
});

afterAll(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe(`0023_next_review_from_newest_verification (${testEngine})`, () => {
  it('has the start-up step set every legal entity stored under the old rules to its newest verification, and say how many', async () => {
    const migrator = new Migrator({ db, provider: migrationProvider });
    const before = await migrator.migrateTo('0022_accent_folded_search');
    expect(before.error).toBeUndefined();

    const histories = fc.sample(historyArbitrary, { numRuns: 60, seed: 2811 });
    const stored: { id: string; history: HistoryVerification[] }[] = [];
    for (const history of histories) {
      // What the seed wrote before: the earliest review date, and a status of its own.
      const earliest = history.map((verification) => verification.nextReview).sort()[0] ?? null;
      const { legalEntityId } = await insertLegalEntity(db, {
        entity: { kyc_status: 'Accepted', next_kyc_review: earliest },
      });
      // Recorded in list order: a millisecond apart, so created_at is the order recorded.
      const rows = history.map((verification, index) => ({
        id: crypto.randomUUID(),
        legal_entity_id: legalEntityId,
        legal_entity_verification: 1,
        verification_status: verification.status,
        verification_date: verification.date,
        verification_source: 'Manual Entry',
        business_statement: '',
        next_review_date: verification.nextReview,
        verification_issues: '[]',
        created_at: new Date(Date.UTC(2026, 0, 1) + index).toISOString(),
      }));
      if (rows.length > 0) await db.insertInto('verifications').values(rows).execute();
      stored.push({ id: legalEntityId, history });
    }
    // Each entity's list record as the server stored it, to see the repair reach it.
    await refreshListRecords(
      db,
      stored.map((entity) => entity.id),
    );

    const expected = new Map(
      stored.map(({ id, history }) => [
        id,
        currentVerificationOf(
          history.map((verification) => ({
            verificationDate: verification.date,
            verificationStatus: verification.status,
            nextReviewDate: verification.nextReview,
          })),
        ),
      ]),
    );
    const rowsBefore = await db
      .selectFrom('entities')
      .select(['id', 'kyc_status', 'next_kyc_review'])
      .where('kind', '=', 'legal')
      .execute();
    const disagreeing = rowsBefore.filter((row) => {
      const current = expected.get(row.id);
      return (
        current !== undefined &&
        (current.kycStatus !== row.kyc_status || current.nextKYCReview !== row.next_kyc_review)
      );
    });
    expect(disagreeing.length).toBeGreaterThan(20);

    await migrateToLatest(db as unknown as Kysely<unknown>);
    const notes = await rebuildDerivedData(db, entityDerivedData);
    expect(notes).toEqual([
      {
        derivedData: 'current-verifications',
        requestedBy: '0023_next_review_from_newest_verification',
        message: `Migration 0023 set the status and next review of ${String(disagreeing.length)} legal entities to their newest verification's.`,
        detail: { changed: disagreeing.length },
      },
      // 0029's name_order update dropped every list record; 0030 has them built again.
      expect.objectContaining({
        derivedData: 'list-records',
        requestedBy: '0030_list_records_after_name_order',
      }),
    ]);
    const recorded = await db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', 'migration.0023_next_review_from_newest_verification')
      .executeTakeFirstOrThrow();
    expect(recorded.value).toBe(String(disagreeing.length));

    const rowsAfter = await db
      .selectFrom('entities')
      .leftJoin('entity_list_records', 'entity_list_records.entity_id', 'entities.id')
      .select(['entities.id', 'kyc_status', 'next_kyc_review', 'entity_list_records.tail'])
      .where('entities.kind', '=', 'legal')
      .execute();
    for (const row of rowsAfter) {
      const current = expected.get(row.id);
      // Without verifications the stored values stand (here: none, as inserted).
      const want = current ?? {
        kycStatus: 'Accepted',
        nextKYCReview: null,
      };
      expect({ status: row.kyc_status, review: row.next_kyc_review }).toEqual({
        status: want.kycStatus,
        review: want.nextKYCReview,
      });
      // The list record was built again with the repaired values.
      expect(row.tail).not.toBeNull();
      const record = JSON.parse(`{${(row.tail ?? '').slice(1)}`) as {
        kycMetaData: { kycStatus: string; nextKYCReview: string | null };
      };
      expect(record.kycMetaData).toMatchObject({
        kycStatus: want.kycStatus,
        nextKYCReview: want.nextKYCReview,
      });
    }
  });
});

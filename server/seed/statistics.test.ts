import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../db/database.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { createGenerator } from './generators.ts';
import { seedRepository } from './seed-repository.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Db;

/** The indexes and, on SQLite, the planner statistics: what a first load drops and rebuilds. */
async function indexesAndStatistics() {
  if (testEngine === 'postgres') {
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema()
      order by indexname`.execute(db);
    return rows;
  }
  const { rows: indexes } = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'index' order by name`.execute(db);
  const { rows: statistics } = await sql<{ idx: string; stat: string }>`
    select idx, stat from sqlite_stat1 order by idx`.execute(db);
  return [...indexes, ...statistics];
}

const entityCount = async () =>
  (
    await db
      .selectFrom('entities')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** A batch of generated legal entities and persons, without documents. */
const generatedRows = (seed: number, legalEntities: number, persons: number) =>
  createGenerator({
    seed,
    now: new Date(),
    newId: () => crypto.randomUUID(),
    takenRegistrations: new Set(),
    documentsPerEntity: 0,
  }).batch(legalEntities, persons);

let migrated: Awaited<ReturnType<typeof indexesAndStatistics>>;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-seed-statistics-'));
  databaseUrl = await newTestDatabaseUrl();
  ({ db } = await openDatabase(dataDir, databaseUrl));
  migrated = await indexesAndStatistics();
  const rows = generatedRows(0x57a7, 200, 100);
  // As `npm run seed` loads a fresh database.
  await seedRepository(db).loadWithIndexesBuiltAfter((trx) => seedRepository(trx).insert(rows));
});

afterAll(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

it(`after a load, the seed leaves the planner what a running server's database has (${testEngine})`, async () => {
  await seedRepository(db).refreshStatistics();
  if (testEngine === 'postgres') {
    // Statistics, and the visibility map an index walk needs to skip the table.
    const { rows } = await sql<{ analysed: boolean; visible: number; pages: number }>`
      select last_analyze is not null as analysed, relallvisible as visible, relpages as pages
      from pg_stat_user_tables join pg_class on pg_class.oid = relid
      where pg_class.relname = 'legal_entities'`.execute(db);
    expect(rows[0]?.analysed).toBe(true);
    expect(rows[0]?.visible).toBeGreaterThan(0);
    expect(rows[0]?.visible).toBe(rows[0]?.pages);
  } else {
    // Only 0038's fixed rows for entities, as on a server's own database: nothing gathered.
    const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(db);
    expect(rows.map((row) => row.tbl)).toEqual(['entities']);
    const { rows: samples } = await sql<{ n: number }>`
      select count(*) as n from sqlite_stat4`.execute(db);
    expect(samples[0]?.n).toBe(0);
  }
});

it(`a first load leaves the indexes and their statistics as the migrations made them (${testEngine})`, async () => {
  expect(Number(await entityCount())).toBe(300);
  expect(await indexesAndStatistics()).toEqual(migrated);
});

it(`a first load that fails leaves no row and every index (${testEngine})`, async () => {
  const rows = generatedRows(0xfa11, 20, 10);
  await expect(
    seedRepository(db).loadWithIndexesBuiltAfter(async (trx) => {
      await seedRepository(trx).insert(rows);
      throw new Error('stopped halfway');
    }),
  ).rejects.toThrow('stopped halfway');
  expect(Number(await entityCount())).toBe(300);
  expect(await indexesAndStatistics()).toEqual(migrated);
});

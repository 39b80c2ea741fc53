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

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-seed-statistics-'));
  databaseUrl = await newTestDatabaseUrl();
  ({ db } = await openDatabase(dataDir, databaseUrl));
  const rows = createGenerator({
    seed: 0x57a7,
    now: new Date(),
    newId: () => crypto.randomUUID(),
    takenRegistrations: new Set(),
    documentsPerEntity: 0,
  }).batch(200, 100);
  await seedRepository(db).inTransaction((trx) => seedRepository(trx).insert(rows));
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

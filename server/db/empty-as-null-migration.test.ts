import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { databaseMigratedTo } from '../testing/migrated-to.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Kysely<Database>;

async function insertEntity(id: string, assignee: string | null, country: string | null) {
  await db
    .insertInto('entities')
    .values({
      id,
      kind: 'legal',
      created_at: '2026-01-01T00:00:00.000Z',
      external_id: null,
      external_id_folded: null,
      kyc_status: 'New',
      risk_level: 'Low',
      last_update: '2026-01-01T00:00:00.000Z',
      next_kyc_review: null,
      tags: '[]',
      assignee,
      country,
    })
    .execute();
}

async function stored() {
  return db.selectFrom('entities').select(['id', 'assignee', 'country']).orderBy('id').execute();
}

/** 0036's counts (and PostgreSQL's pending changes), per group, against a count of the rows. */
async function countsAgainstRows() {
  const kept = await sql<{ country: string; assignee: string; n: number | string }>`
    select country, assignee, sum(n) as n from (
      select country, assignee, n from entity_index_counts
      union all select country, assignee, n from entity_index_count_deltas) groups
    group by country, assignee having sum(n) <> 0 order by country, assignee`.execute(db);
  const counted = await sql<{ country: string; assignee: string; n: number | string }>`
    select coalesce(country, '') as country, coalesce(assignee, '') as assignee, count(*) as n
    from entities group by coalesce(country, ''), coalesce(assignee, '')
    order by country, assignee`.execute(db);
  const plain = (rows: { country: string; assignee: string; n: number | string }[]) =>
    rows.map((row) => ({ ...row, n: Number(row.n) }));
  return { kept: plain(kept.rows), counted: plain(counted.rows) };
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-0037-'));
  databaseUrl = await newTestDatabaseUrl();
  db = await databaseMigratedTo('0036_entity_index_counts', {
    databaseUrl,
    dataDir,
    file: 'before-0037.sqlite',
  });
  // Written straight into the database, as only such a write could: '' for none.
  await insertEntity('a', '', '');
  await insertEntity('b', 'bob', '');
  await insertEntity('c', '', 'GB');
  await insertEntity('d', null, null);
  await insertEntity('e', 'bob', 'DE');
  await migrateToLatest(db as unknown as Kysely<unknown>);
});

afterAll(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe(`0037: an empty assignee or country is stored as null (${testEngine})`, () => {
  test('turns the stored empty values into null, and leaves every other value', async () => {
    expect(await stored()).toEqual([
      { id: 'a', assignee: null, country: null },
      { id: 'b', assignee: 'bob', country: null },
      { id: 'c', assignee: null, country: 'GB' },
      { id: 'd', assignee: null, country: null },
      { id: 'e', assignee: 'bob', country: 'DE' },
    ]);
    const { kept, counted } = await countsAgainstRows();
    expect(kept).toEqual(counted);
  });

  test('stores null for an empty value written afterwards, by insert or update, and keeps the counts', async () => {
    await insertEntity('f', '', '');
    await db.updateTable('entities').set({ assignee: '' }).where('id', '=', 'e').execute();
    await db.updateTable('entities').set({ country: '' }).where('id', '=', 'c').execute();
    await db
      .updateTable('entities')
      .set({ assignee: 'alice', country: 'FR' })
      .where('id', '=', 'a')
      .execute();
    expect(await stored()).toEqual([
      { id: 'a', assignee: 'alice', country: 'FR' },
      { id: 'b', assignee: 'bob', country: null },
      { id: 'c', assignee: null, country: null },
      { id: 'd', assignee: null, country: null },
      { id: 'e', assignee: null, country: 'DE' },
      { id: 'f', assignee: null, country: null },
    ]);
    const { kept, counted } = await countsAgainstRows();
    expect(kept).toEqual(counted);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type Compilable, CompiledQuery, sql } from 'kysely';
import { ENTITY_INDEX_SORTS } from '../../contract/entity-index.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { withEntitySearchColumns } from '../entities/read-model/search-columns.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { entityIndexRepository } from './repository.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Db;

/** The plan of a query on either engine, one line per step; PostgreSQL may not read a table whole. */
async function planOf(query: Compilable): Promise<string[]> {
  if (testEngine === 'sqlite') return queryPlanOf(db, query);
  const compiled = query.compile();
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return rows.map((row) => row['QUERY PLAN']);
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-entity-index-plans-'));
  databaseUrl = await newTestDatabaseUrl();
  ({ db } = await openDatabase(dataDir, databaseUrl));
  // 4,000 rows in 180 groups (every value set: a null's two arms are the oracle test's), analysed.
  const statuses = ['New', 'Pending', 'Review', 'Accepted', 'Rejected'];
  // In chunks of 400: SQLite binds at most 32,766 values a statement.
  for (let start = 0; start < 4000; start += 400)
    await db
      .insertInto('entities')
      .values(
        Array.from({ length: 400 }, (_, offset) => start + offset).map((n) => ({
          ...withEntitySearchColumns({
            id: randomUUID(),
            kind: n % 2 === 0 ? ('legal' as const) : ('person' as const),
            created_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
            external_id: null,
            kyc_status: statuses[Math.floor(n / 2) % 5] ?? 'New',
            risk_level: ['Low', 'Medium', 'High'][Math.floor(n / 10) % 3] ?? 'Low',
            last_update: '2026-01-01T00:00:00.000Z',
            next_kyc_review: n % 4 === 0 ? null : '2026-06-01',
            tags: '[]',
          }),
          name_order: `name ${String(n % 97)}`,
          country: ['GB', 'DE', 'FR'][Math.floor(n / 30) % 3] ?? 'GB',
          assignee: Math.floor(n / 90) % 2 === 0 ? 'alice' : 'bob',
        })),
      )
      .execute();
  await sql`analyze`.execute(db);
});

afterAll(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe(`entity index pages read by group (${testEngine})`, () => {
  it.each(ENTITY_INDEX_SORTS)(
    'sort=%s seeks each group in its group index, after the key, and sorts only the merge',
    async (sort) => {
      const repository = entityIndexRepository(db);
      const criteria = { kycStatus: 'New', riskLevel: 'Medium', kind: 'legal' } as const;
      const groups = await repository.groupsToRead(criteria, 5);
      expect(groups).toHaveLength(6);
      const query = repository.groupPageQuery(
        groups ?? [],
        criteria,
        sort,
        'asc',
        { value: sort === 'status' ? 'New' : sort === 'name' ? 'name' : '2026', id: 'a' },
        5,
      );
      if (query === undefined) throw new Error('no arms for six groups');
      const plan = await planOf(query);
      const text = plan.join('\n');
      expect(
        // PostgreSQL folds the unquoted name to lower case.
        plan.filter((line) => line.toLowerCase().includes(`entities_group_${sort.toLowerCase()}`)),
        text,
      ).toHaveLength(6);
      if (testEngine === 'sqlite') {
        expect(
          plan.filter((line) => line.startsWith('SCAN entities')),
          text,
        ).toEqual([]);
        // Each arm is read in order from its index, seeking the key; only the merge is sorted.
        expect(
          plan.filter((line) => line.includes('TEMP B-TREE')),
          text,
        ).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
        for (const line of plan.filter((step) => step.includes('entities_group_')))
          expect(line).toMatch(sort === 'status' ? /id>\?\)$/ : />\?\)$/);
      } else {
        expect(text).not.toContain('Seq Scan on entities');
        expect(
          plan.filter((line) => line.includes('Sort Key')),
          text,
        ).toHaveLength(1);
      }
    },
  );
});

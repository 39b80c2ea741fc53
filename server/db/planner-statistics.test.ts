import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { entityIndexFilterSchema } from '../../contract/entity-index.ts';
import { entityIndexRepository } from '../entity-index/repository.ts';
import { criteriaOf } from '../entity-index/service.ts';
import { reviewsRepository } from '../reviews/repository.ts';
import { rangeOf } from '../reviews/service.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { testEngine } from '../testing/harness.ts';
import { openDatabase, type Db } from './database.ts';

let dataDir: string;
let db: Db;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-planner-statistics-'));
  ({ db } = await openDatabase(dataDir));
});

afterAll(async () => {
  await db.destroy();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe.runIf(testEngine === 'sqlite')('SQLite planner statistics (0038)', () => {
  it('holds one fixed row for every index of entities, and nothing gathered', async () => {
    const { rows: indexes } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'index' and tbl_name = 'entities'`.execute(db);
    const { rows: statistics } = await sql<{ tbl: string; idx: string; stat: string }>`
      select tbl, idx, stat from sqlite_stat1`.execute(db);
    // An index added without its row is planned from SQLite's defaults: add it to a migration.
    expect(statistics.map((row) => row.idx).sort()).toEqual(indexes.map((row) => row.name).sort());
    expect(new Set(statistics.map((row) => row.tbl))).toEqual(new Set(['entities']));
    for (const row of statistics) expect(row.stat).toMatch(/^\d+( \d+)+$/);
  });

  // The plans the statistics exist for: each was 80-240 ms at 100,000 entities without them.
  it.each([
    [
      'a name start with a status and a risk level reads the name range',
      { type: 'legal-entities', kycStatus: 'Review', riskLevel: 'Low', q: 'sv' },
      'name_order>?',
    ],
    [
      'a name start of persons reads the name range',
      { type: 'natural-persons', q: 'hel' },
      'name_order>?',
    ],
    [
      'my entities read an assignee range',
      { type: 'all', kycStatus: 'Accepted', assignee: 'me' },
      'assignee=?',
    ],
  ] as const)('entity index: %s', async (_name, filter, range) => {
    const plan = await queryPlanOf(
      db,
      entityIndexRepository(db).pageQuery(
        criteriaOf(entityIndexFilterSchema.parse(filter), 'alex'),
        'created',
        'asc',
        undefined,
        26,
      ),
    );
    const firstRead = plan.find((line) => line.startsWith('SEARCH entities '));
    expect(firstRead, plan.join('\n')).toContain(range);
  });

  it('the queue reads a waiting client response by id, not a walk of the whole queue', async () => {
    const plan = await queryPlanOf(
      db,
      reviewsRepository(db).pageQuery(
        rangeOf('responded', '2026-06-10'),
        { assignee: null },
        undefined,
        51,
      ),
    );
    expect(plan[0], plan.join('\n')).toContain('USING INDEX sqlite_autoindex_entities_1 (id=?)');
  });
});

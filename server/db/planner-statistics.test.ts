import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ENTITY_INDEX_SORTS, entityIndexFilterSchema } from '../../contract/entity-index.ts';
import { entityIndexRepository, FILTER_COLUMNS } from '../entity-index/repository.ts';
import { createEntityIndexKept, criteriaOf } from '../entity-index/service.ts';
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

/** What every entity write does in its transaction (0014): reads kept until then are read again. */
async function bumpChangeCounter() {
  await sql`update change_counter set version = version + 1 where id = 1`.execute(db);
}

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

  const allFilters = criteriaOf(
    entityIndexFilterSchema.parse({
      type: 'legal-entities',
      kycStatus: 'Accepted',
      riskLevel: 'Low',
      country: 'AU',
      assignee: 'none',
    }),
    'alex',
  );

  // Each was a sorted range or a walk of a common value's index: 98-122 ms at 1,500,000.
  it.each(
    ENTITY_INDEX_SORTS.flatMap((sort) =>
      (Object.keys(FILTER_COLUMNS) as (keyof typeof FILTER_COLUMNS)[]).map(
        (lead) => [sort, lead] as const,
      ),
    ),
  )(
    'entity index sorted by %s, led by %s: seeks that filter and walks in order, the others tested in the index',
    async (sort, lead) => {
      const plan = await queryPlanOf(
        db,
        entityIndexRepository(db).pageQuery(allFilters, sort, 'asc', undefined, 26, {
          lead,
          drive: 'order',
        }),
      );
      const firstRead = plan.find((line) => line.startsWith('SEARCH entities '));
      // Sorted by status, the status filter is a point of the order: its index seeks it too.
      const seeks = sort === 'status' ? 'kyc_status=?' : `(${FILTER_COLUMNS[lead]}=?)`;
      expect(firstRead, plan.join('\n')).toContain(seeks);
      expect(plan.join('\n')).not.toContain('TEMP B-TREE');
      // 0039: every filter column is in the index, so only returned rows are read.
      const index = /USING (?:COVERING )?INDEX (\w+)/.exec(firstRead ?? '')?.[1] ?? '';
      const { rows } = await sql<{
        name: string;
      }>`select name from pragma_index_info(${index})`.execute(db);
      expect(rows.map((row) => row.name)).toEqual(
        expect.arrayContaining(Object.values(FILTER_COLUMNS)),
      );
    },
  );

  // A name start's page is its names, as planned, beside the exact IDs; the few found are sorted.
  it.each([
    ['name', 'name', '(country=? AND name_order>? AND name_order<?)', 1],
    ...ENTITY_INDEX_SORTS.filter((sort) => sort !== 'name').flatMap((sort) => [
      [sort, 'name', '(country=? AND name_order>? AND name_order<?)', 2] as const,
      // Sorted by status, the status filter is a point of the order, sought with the lead.
      [
        sort,
        'order',
        sort === 'status' ? '(country=? AND kyc_status=?)' : '(country=?)',
        1,
      ] as const,
    ]),
  ] as const)(
    'a name start sorted by %s, led by country, driven by the %s: reads %s, sorts %i time(s)',
    async (sort, drive, read, sorts) => {
      const plan = await queryPlanOf(
        db,
        entityIndexRepository(db).pageQuery(
          { ...allFilters, namePrefix: 'ac', exact: { id: 'ac', externalIdFolded: 'ac' } },
          sort,
          'asc',
          undefined,
          26,
          { lead: 'country', drive },
        ),
      );
      // The first read is the page's rows by id; the next, the names.
      const names = plan.slice(1).find((line) => line.startsWith('SEARCH entities '));
      expect(names, plan.join(' | ')).toMatch(/^SEARCH entities USING (COVERING )?INDEX /);
      expect(names).toContain(read);
      expect(plan.filter((line) => line === 'USE TEMP B-TREE FOR ORDER BY')).toHaveLength(sorts);
    },
  );

  it('leads with the filter the fewest entities match, by the exact counts', async () => {
    const { lead } = createEntityIndexKept(db);
    // Groups kept before the counts change: the answers below must not come from them.
    await lead(allFilters);
    const group = {
      kind: 'legal' as const,
      kyc_status: 'Accepted',
      risk_level: 'Low',
      assignee: '',
    };
    await db
      .insertInto('entity_index_counts')
      .values([
        { ...group, country: 'AU', n: 40 },
        { ...group, kind: 'person' as const, country: 'GB', n: 500 },
        { ...group, kyc_status: 'Review', country: 'GB', n: 300 },
        { ...group, risk_level: 'High', assignee: 'alex', country: 'GB', n: 30 },
      ])
      .execute();
    // As 0036's triggers do with the entity write they count: the kept groups are read again.
    await bumpChangeCounter();
    try {
      const leadOf = async (criteria: Parameters<typeof lead>[0]) => (await lead(criteria))?.filter;
      // Matching: legal 370, Accepted 570, Low 840, AU 40, unassigned 840, alex 30.
      expect(await lead(allFilters)).toEqual({ filter: 'country', matching: 40 });
      expect(await leadOf({ ...allFilters, assignee: 'alex' })).toBe('assignee');
      expect(await leadOf({ kind: 'legal', riskLevel: 'Low' })).toBe('kind');
      expect(await leadOf({ kycStatus: 'Accepted', riskLevel: 'Low' })).toBe('kycStatus');
      // One filter is its own index; with a name start, its name range is.
      expect(await lead({ country: 'AU' })).toBeUndefined();
      expect(await leadOf({ country: 'GB', namePrefix: 'ac' })).toBe('country');
      expect(await leadOf({ ...allFilters, namePrefix: 'ac' })).toBe('country');
      expect(await lead({ namePrefix: 'ac' })).toEqual({ matching: 870 });
    } finally {
      await db.deleteFrom('entity_index_counts').execute();
      await bumpChangeCounter();
    }
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

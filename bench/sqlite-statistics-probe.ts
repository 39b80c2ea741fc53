/**
 * The entity index and the review queue, in-process, on one SQLite database or more side by side
 * (copies of one seeded database with different planner statistics, say): every page and total
 * of `--filters` random entity-index filters drawn as server-bench.ts draws them, and every queue
 * window by every single filter, the databases taking turns query by query; answers must be equal.
 * Records p50/p95/max and the sum per side, and the queries whose time differs most (or the
 * slowest), with plans.
 *
 * Usage: tsx bench/sqlite-statistics-probe.ts --data-dir DIR [--data-dir DIR …] [--filters 300]
 *          [--rounds 2]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { KYC_STATUSES, RISK_LEVELS } from '../contract/entities.ts';
import {
  ENTITY_INDEX_ORDERS,
  ENTITY_INDEX_SORTS,
  entityIndexFilterSchema,
} from '../contract/entity-index.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { entityIndexRepository } from '../server/entity-index/repository.ts';
import {
  createEntityIndexKept,
  criteriaOf,
  type EntityIndexKept,
} from '../server/entity-index/service.ts';
import { reviewsRepository, type ReviewQueueFilter } from '../server/reviews/repository.ts';
import { countedWindows, rangeOf } from '../server/reviews/service.ts';
import { COUNTRIES } from '../server/seed/locales.ts';
import { createRandom } from '../server/seed/random.ts';
import { queryPlanOf } from '../server/testing/query-plan.ts';
import { sql, type Compilable } from 'kysely';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string', multiple: true },
    filters: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
  },
});
const dataDirs = options['data-dir'] ?? [];
if (dataDirs.length === 0) throw new Error('--data-dir is required (see the header).');

interface Side {
  name: string;
  db: Db;
  kept: EntityIndexKept;
}
const sides: Side[] = [];
for (const dataDir of dataDirs) {
  const { db } = await openDatabase(dataDir);
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  const stats = rows[0]?.n ? 'with statistics' : 'without statistics';
  sides.push({ name: `${path.basename(dataDir)} (${stats})`, db, kept: createEntityIndexKept(db) });
}
const first = sides[0];
if (!first) throw new Error('no database');

interface Probe {
  scenario: string;
  label: string;
  run: (db: Db, kept: EntityIndexKept) => Promise<unknown>;
  /** The query, for its plan. */
  query?: (db: Db) => Compilable;
}

const random = createRandom(20_261_126);
const { rows: nameRows } = await sql<{
  name: string;
}>`select name_order as name from entities order by id limit 1000`.execute(first.db);
const names = nameRows.map((row) => row.name);
const probes: Probe[] = [];
for (let index = 0; index < Number(options.filters); index++) {
  // Parsed as the route parses a query, so the probe reads what a request would.
  const filter = entityIndexFilterSchema.parse({
    type: random.pick(['all', 'legal-entities', 'natural-persons']),
    sort: random.pick(ENTITY_INDEX_SORTS),
    order: random.pick(ENTITY_INDEX_ORDERS),
    ...(random.chance(0.5) ? { kycStatus: random.pick(KYC_STATUSES) } : {}),
    ...(random.chance(0.5) ? { riskLevel: random.pick(RISK_LEVELS) } : {}),
    ...(random.chance(0.5) ? { country: random.pick(COUNTRIES).code } : {}),
    ...(random.chance(0.3) ? { assignee: random.chance(2 / 3) ? 'none' : 'me' } : {}),
    ...(random.chance(0.3) ? { q: random.pick(names).slice(0, random.int(2, 5)) } : {}),
  });
  const { sort, order } = filter;
  const criteria = criteriaOf(filter, 'bench');
  const label = JSON.stringify(filter);
  probes.push(
    {
      scenario: 'entity-index page',
      label,
      run: async (db, kept) =>
        entityIndexRepository(db).page(
          criteria,
          sort,
          order,
          undefined,
          26,
          await kept.lead(criteria),
        ),
      query: (db) => entityIndexRepository(db).pageQuery(criteria, sort, order, undefined, 26),
    },
    {
      scenario: 'entity-index total',
      label,
      run: async (db, kept) => entityIndexRepository(db).total(criteria, await kept.lead(criteria)),
    },
  );
}

const today = new Date().toISOString().slice(0, 10);
const queueFilters: [string, ReviewQueueFilter][] = [
  ['no filter', {}],
  ['persons', { kind: 'person' }],
  ['legal', { kind: 'legal' }],
  ['status Review', { kycStatus: 'Review' }],
  ['risk High', { riskLevel: 'High' }],
  ['country GB', { country: 'GB' }],
  ['unassigned', { assignee: null }],
  ['assigned to bench', { assignee: 'bench' }],
];
const windows = countedWindows(today);
for (const [name, filter] of queueFilters) {
  for (const window of ['overdue', '7d', '30d', 'undated', 'all', 'responded'] as const) {
    probes.push({
      scenario: 'queue page',
      label: `${window} ${name}`,
      run: (db) => reviewsRepository(db).page(rangeOf(window, today), filter, undefined, 51),
      query: (db) => reviewsRepository(db).pageQuery(rangeOf(window, today), filter, undefined, 51),
    });
  }
  probes.push({
    scenario: 'queue counts',
    label: name,
    run: (db) => reviewsRepository(db).counts(windows, filter),
    query: (db) => reviewsRepository(db).countsQuery(windows, filter),
  });
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

const times = new Map<Probe, number[][]>();
for (let round = 0; round < Number(options.rounds); round++) {
  for (const probe of probes) {
    let expected: string | undefined;
    const perSide = times.get(probe) ?? sides.map(() => []);
    times.set(probe, perSide);
    // Taking turns at going first, so no side always meets another's warm cache.
    for (let turn = 0; turn < sides.length; turn++) {
      const sideIndex = (turn + round) % sides.length;
      const side = sides[sideIndex] ?? first;
      const started = performance.now();
      const answer = JSON.stringify(await probe.run(side.db, side.kept));
      perSide[sideIndex]?.push(performance.now() - started);
      expected ??= answer;
      if (answer !== expected) throw new Error(`${probe.scenario} ${probe.label}: answers differ`);
    }
  }
}

// A query's time on a side: its best round, as the rounds after the first meet a warm cache.
const best = (probe: Probe, side: number) => Math.min(...(times.get(probe)?.[side] ?? [0]));
for (const scenario of [...new Set(probes.map((probe) => probe.scenario))]) {
  const ofScenario = probes.filter((probe) => probe.scenario === scenario);
  process.stdout.write(`\n${scenario} (${String(ofScenario.length)} queries)\n`);
  sides.forEach((side, index) => {
    const sorted = ofScenario.map((probe) => best(probe, index)).sort((a, b) => a - b);
    const sum = sorted.reduce((total, ms) => total + ms, 0);
    process.stdout.write(
      `  ${side.name.padEnd(40)} sum ${sum.toFixed(0)} ms  p50 ${percentile(sorted, 0.5).toFixed(2)}  p95 ${percentile(sorted, 0.95).toFixed(2)}  max ${percentile(sorted, 1).toFixed(2)} ms\n`,
    );
  });
  const spread = ofScenario
    .map((probe) => ({ probe, ms: sides.map((_side, index) => best(probe, index)) }))
    .map((entry) => ({
      ...entry,
      ratio: Math.max(...entry.ms) / Math.max(0.01, Math.min(...entry.ms)),
    }))
    .filter((entry) => Math.max(...entry.ms) > 5)
    // Alone, a database shows its slowest queries.
    .sort((a, b) => b.ratio - a.ratio || Math.max(...b.ms) - Math.max(...a.ms))
    .slice(0, 4);
  for (const entry of spread) {
    process.stdout.write(
      `  ${entry.probe.label}: ${entry.ms.map((ms) => ms.toFixed(1)).join(' / ')} ms\n`,
    );
    const { query } = entry.probe;
    if (!query) continue;
    for (const side of sides) {
      const plan = await queryPlanOf(side.db, query(side.db));
      process.stdout.write(`    ${side.name}: ${plan.join(' | ')}\n`);
    }
  }
}
for (const side of sides) await side.db.destroy();

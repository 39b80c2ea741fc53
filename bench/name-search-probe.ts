/**
 * Name search on a cache miss, in-process, on two or more PostgreSQL databases side by side (copies
 * of one seeded database in different states: vacuumed or not, another index, other settings):
 * the repository's company-name and last-name searches for fragments drawn as server-bench.ts
 * draws them (3-8 characters of real names, a fifth in capitals), the databases taking turns
 * fragment by fragment; answers must be equal. Records p50/p95, the slowest fragments and the CPU
 * a search cost this process and the database's backends (from /proc).
 *
 * Usage: tsx bench/name-search-probe.ts --data-dir DIR --database-url URL --database-url URL …
 *          [--fragments 1000] [--rounds 2]
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../server/db/database.ts';
import { readModelRepository } from '../server/entities/read-model/repository.ts';
import { createRandom } from '../server/seed/random.ts';
import { cpuMs } from './processes.ts';
import { searchFragments } from './search-fragments.ts';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string', multiple: true },
    fragments: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
  },
});
const dataDir = options['data-dir'];
const databaseUrls = options['database-url'] ?? [];
if (!dataDir || databaseUrls.length === 0)
  throw new Error('--data-dir and --database-url are required (see the header).');

interface Side {
  name: string;
  db: Db;
  backendPids: Set<number>;
  times: number[];
  worst: { fragment: string; ms: number }[];
  ownMs: number;
  serverMs: number;
}

const sides: Side[] = [];
for (const url of databaseUrls) {
  const { db } = await openDatabase(dataDir, url);
  // This process's own backends (the pool's connections), not the server's other work.
  const backendPids = new Set<number>();
  for (let attempt = 0; attempt < 5; attempt++) {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    for (const row of rows) backendPids.add(row.pid);
  }
  sides.push({
    name: new URL(url).pathname.slice(1),
    db,
    backendPids,
    times: [],
    worst: [],
    ownMs: 0,
    serverMs: 0,
  });
}
const first = sides[0];
if (!first) throw new Error('no database');

const random = createRandom(20_261_122);
const fragmentCount = Number(options.fragments);

const { rows: companyRows } = await sql<{
  name: string;
}>`select company_name as name from legal_entities order by entity_id limit 1000`.execute(first.db);
const { rows: personRows } = await sql<{
  name: string;
}>`select last_name as name from natural_persons order by entity_id limit 1000`.execute(first.db);

const scenarios: {
  name: string;
  fragments: string[];
  search: (db: Db, fragment: string) => Promise<string[]>;
}[] = [
  {
    name: 'companyName',
    fragments: searchFragments(
      random,
      companyRows.map((row) => row.name),
      fragmentCount,
    ),
    search: (db, fragment) =>
      readModelRepository(db).searchLegalEntities({ companyNameContains: fragment }),
  },
  {
    name: 'lastName',
    fragments: searchFragments(
      random,
      personRows.map((row) => row.name),
      fragmentCount,
    ),
    search: (db, fragment) =>
      readModelRepository(db).searchNaturalPersons({ lastNameContains: fragment }),
  },
];

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const backendCpuMs = (side: Side) =>
  [...side.backendPids].reduce((sum, pid) => sum + (cpuMs(pid) ?? 0), 0);
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

for (const scenario of scenarios) {
  for (const side of sides) Object.assign(side, { times: [], worst: [], ownMs: 0, serverMs: 0 });
  for (let round = 0; round < Number(options.rounds); round++) {
    for (const fragment of scenario.fragments) {
      let expected: string | undefined;
      // Taking turns at going first, so no side always meets another's warm cache.
      for (let turn = 0; turn < sides.length; turn++) {
        const side = sides[(turn + round) % sides.length] ?? first;
        const own = ownCpuMs();
        const server = backendCpuMs(side);
        const started = performance.now();
        const answer = JSON.stringify(await scenario.search(side.db, fragment));
        const ms = performance.now() - started;
        side.ownMs += ownCpuMs() - own;
        side.serverMs += backendCpuMs(side) - server;
        side.times.push(ms);
        if (round > 0) side.worst.push({ fragment, ms });
        expected ??= answer;
        if (answer !== expected)
          throw new Error(`${scenario.name} ${JSON.stringify(fragment)}: the answers differ`);
      }
    }
  }
  for (const side of sides) {
    const sorted = [...side.times].sort((a, b) => a - b);
    const count = sorted.length;
    const total = sorted.reduce((sum, ms) => sum + ms, 0);
    const worst = side.worst.sort((a, b) => b.ms - a.ms).slice(0, 8);
    process.stdout.write(
      `${scenario.name.padEnd(12)} ${side.name} ${String(count)} searches  p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p95 ${percentile(sorted, 0.95).toFixed(2)} ms  max ${percentile(sorted, 1).toFixed(2)} ms  mean ${(total / count).toFixed(2)} ms  CPU a search: probe ${(side.ownMs / count).toFixed(3)} ms + database ${(side.serverMs / count).toFixed(3)} ms\n` +
        `  slowest: ${worst.map((entry) => `${JSON.stringify(entry.fragment)} ${entry.ms.toFixed(1)}`).join(', ')}\n`,
    );
  }
}
for (const side of sides) await side.db.destroy();

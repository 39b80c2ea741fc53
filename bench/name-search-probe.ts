/**
 * Name search on a cache miss, in-process, before and after side by side on one seeded database:
 * `before` is the one query the planner plans alone (a trigram index, then a sort, or the walk);
 * `after` is the repository's search (on PostgreSQL the probe, then the walk). Fragments are drawn
 * as server-bench.ts draws them (3-8 characters of real names, a fifth in capitals), alternating
 * the two sides fragment by fragment; answers must be equal. Records p50/p95 and the CPU a search
 * cost this process and, on PostgreSQL, the server (postmaster and every backend, from /proc).
 *
 * Usage: tsx bench/name-search-probe.ts --data-dir DIR [--database-url URL] [--fragments 1000]
 *          [--rounds 2]
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database.ts';
import {
  legalEntitySearchQuery,
  naturalPersonSearchQuery,
  readModelRepository,
} from '../server/entities/read-model/repository.ts';
import { createRandom } from '../server/seed/random.ts';
import { postgresServerPid, processTreeCpuMs } from './processes.ts';

const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    fragments: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
  },
});
const dataDir = options['data-dir'];
if (!dataDir) throw new Error('--data-dir is required (see the header).');
const databaseUrl = options['database-url'];

const { db } = await openDatabase(dataDir, databaseUrl);
const repository = readModelRepository(db);
const random = createRandom(20_261_122);
const fragmentCount = Number(options.fragments);

/** As server-bench.ts's fragmentsOf: 3-8 characters of a name, a fifth in capitals. */
function fragmentsOf(from: readonly string[]): string[] {
  const fragments = new Set<string>();
  for (let attempt = 0; fragments.size < fragmentCount && attempt < 100_000; attempt++) {
    const name = random.pick(from);
    const start = random.int(0, Math.max(0, name.length - 3));
    const fragment = name.slice(start, start + random.int(3, 8));
    fragments.add(random.chance(0.2) ? fragment.toUpperCase() : fragment);
  }
  return [...fragments];
}

// 1,000 names each, from anywhere in the list (the bench reads ten random pages of 100).
const { rows: companyRows } = await sql<{
  name: string;
}>`select company_name as name from legal_entities order by entity_id limit 1000`.execute(db);
const { rows: personRows } = await sql<{
  name: string;
}>`select last_name as name from natural_persons order by entity_id limit 1000`.execute(db);

type Search = (fragment: string) => Promise<string[]>;
const scenarios: { name: string; fragments: string[]; before: Search; after: Search }[] = [
  {
    name: 'companyName',
    fragments: fragmentsOf(companyRows.map((row) => row.name)),
    before: async (fragment) =>
      (await legalEntitySearchQuery(db, { companyNameContains: fragment }).execute()).map(
        (row) => row.entity_id,
      ),
    after: (fragment) => repository.searchLegalEntities({ companyNameContains: fragment }),
  },
  {
    name: 'lastName',
    fragments: fragmentsOf(personRows.map((row) => row.name)),
    before: async (fragment) =>
      (await naturalPersonSearchQuery(db, { lastNameContains: fragment }).execute()).map(
        (row) => row.entity_id,
      ),
    after: (fragment) => repository.searchNaturalPersons({ lastNameContains: fragment }),
  },
];

const postmasterPid = databaseUrl ? await postgresServerPid(databaseUrl) : undefined;
const serverCpuMs = () =>
  postmasterPid === undefined ? 0 : (processTreeCpuMs(postmasterPid) ?? 0);
const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

interface Side {
  times: number[];
  ownMs: number;
  serverMs: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

for (const scenario of scenarios) {
  const sides: Record<'before' | 'after', Side> = {
    before: { times: [], ownMs: 0, serverMs: 0 },
    after: { times: [], ownMs: 0, serverMs: 0 },
  };
  let slowest = { fragment: '', ms: 0, side: '' };
  for (let round = 0; round < Number(options.rounds); round++) {
    for (const fragment of scenario.fragments) {
      const answers: Partial<Record<'before' | 'after', string[]>> = {};
      // Alternating which goes first, so neither always meets the other's warm cache.
      const order =
        round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const name of order) {
        const side = sides[name];
        const own = ownCpuMs();
        const server = serverCpuMs();
        const started = performance.now();
        answers[name] = await scenario[name](fragment);
        const ms = performance.now() - started;
        side.ownMs += ownCpuMs() - own;
        side.serverMs += serverCpuMs() - server;
        side.times.push(ms);
        if (round > 0 && ms > slowest.ms) slowest = { fragment, ms, side: name };
      }
      if (JSON.stringify(answers.before) !== JSON.stringify(answers.after))
        throw new Error(`${scenario.name} ${JSON.stringify(fragment)}: the answers differ`);
    }
  }
  for (const [name, side] of Object.entries(sides)) {
    const sorted = [...side.times].sort((a, b) => a - b);
    const count = sorted.length;
    const total = sorted.reduce((sum, ms) => sum + ms, 0);
    process.stdout.write(
      `${scenario.name.padEnd(12)} ${name.padEnd(7)} ${String(count)} searches  p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p95 ${percentile(sorted, 0.95).toFixed(2)} ms  max ${percentile(sorted, 1).toFixed(2)} ms  mean ${(total / count).toFixed(2)} ms  CPU a search: probe ${(side.ownMs / count).toFixed(3)} ms + database ${(side.serverMs / count).toFixed(3)} ms\n`,
    );
  }
  process.stdout.write(
    `${scenario.name.padEnd(12)} slowest after the first round: ${JSON.stringify(slowest.fragment)} ${slowest.side} ${slowest.ms.toFixed(2)} ms\n`,
  );
}
await db.destroy();

import { ENTITY_INDEX_ORDERS, ENTITY_INDEX_SORTS } from '../contract/entity-index.ts';
import { KYC_STATUSES, RISK_LEVELS } from '../contract/entities.ts';
import { COUNTRIES } from '../server/seed/locales.ts';
import { createRandom, type Random } from '../server/seed/random.ts';
import { latencySummary } from './review-queue-bench.ts';

export interface EntityIndexCase {
  sort: string;
  order: string;
  samples: number;
  latencyMs: { p50: number; p95: number; max: number };
}

export interface EntityIndexBenchResult {
  samplesPerCase: number;
  cases: EntityIndexCase[];
  /** Every request of every case together. */
  overall: { p50: number; p95: number; max: number };
  worstCaseP95: number;
}

/**
 * Entity-index queries (path and query string after `/api/v2/entity-index?`) of random filters,
 * as a reviewer combines them, none in `exclude`: type, status, risk, country, unassigned, and
 * the 2–5 letter start of a name in `names`.
 */
export function entityIndexFilterQueries(
  random: Random,
  names: readonly string[],
  count: number,
  sortAndOrder?: { sort: string; order: string },
  exclude: ReadonlySet<string> = new Set(),
): string[] {
  const queries = new Set<string>();
  while (queries.size < count) {
    const query = new URLSearchParams({
      type: random.pick(['all', 'legal-entities', 'natural-persons']),
      sort: sortAndOrder?.sort ?? random.pick(ENTITY_INDEX_SORTS),
      order: sortAndOrder?.order ?? random.pick(ENTITY_INDEX_ORDERS),
    });
    if (random.chance(0.5)) query.set('kycStatus', random.pick(KYC_STATUSES));
    if (random.chance(0.5)) query.set('riskLevel', random.pick(RISK_LEVELS));
    if (random.chance(0.5)) query.set('country', random.pick(COUNTRIES).code);
    if (random.chance(0.2)) query.set('assignee', 'none');
    if (random.chance(0.3)) {
      const start = random.pick(names).slice(0, random.int(2, 5)).trim();
      if (start) query.set('q', start);
    }
    const text = query.toString();
    if (!exclude.has(text)) queries.add(text);
  }
  return [...queries];
}

/**
 * The entity index's latency, one request at a time (a reviewer's view, nothing queued ahead):
 * for every sort and order, first pages of distinct random filters, so that each total is
 * counted anew (the server keeps 500) and no answer is cached.
 */
export async function runEntityIndexBench(
  baseUrl: string,
  apiKey: string,
  names: readonly string[],
  quick: boolean,
  exclude: ReadonlySet<string> = new Set(),
): Promise<EntityIndexBenchResult> {
  const samplesPerCase = quick ? 10 : 60;
  // Its own draws: the filters the throughput scenario cycled have their totals kept.
  const random = createRandom(20_261_127);
  const cases: EntityIndexCase[] = [];
  const all: number[] = [];
  for (const sort of ENTITY_INDEX_SORTS) {
    for (const order of ENTITY_INDEX_ORDERS) {
      const latencies: number[] = [];
      for (const query of entityIndexFilterQueries(
        random,
        names,
        samplesPerCase,
        { sort, order },
        exclude,
      )) {
        const started = performance.now();
        const response = await fetch(`${baseUrl}/api/v2/entity-index?${query}&limit=25`, {
          headers: { 'X-API-Key': apiKey },
        });
        const text = await response.text();
        latencies.push(performance.now() - started);
        if (!response.ok) {
          throw new Error(`entity index ${query}: ${String(response.status)} ${text}`);
        }
      }
      all.push(...latencies);
      cases.push({ sort, order, samples: latencies.length, latencyMs: latencySummary(latencies) });
    }
  }
  return {
    samplesPerCase,
    cases,
    overall: latencySummary(all),
    worstCaseP95: Math.max(...cases.map((row) => row.latencyMs.p95)),
  };
}

/** Standalone: `npx tsx bench/entity-index-bench.ts <base URL> <API key> [--quick]`. */
if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const [baseUrl, apiKey] = process.argv.slice(2);
  if (!baseUrl || !apiKey) {
    process.stderr.write(
      'Usage: npx tsx bench/entity-index-bench.ts <base URL> <API key> [--quick]\n',
    );
    process.exit(2);
  }
  // Name starts from the oldest and newest entities: names in no particular order.
  const names: string[] = [];
  for (const order of ENTITY_INDEX_ORDERS) {
    const response = await fetch(
      `${baseUrl}/api/v2/entity-index?sort=created&order=${order}&limit=100`,
      { headers: { 'X-API-Key': apiKey } },
    );
    const page = (await response.json()) as { data: { name: string }[] };
    names.push(...page.data.map((row) => row.name));
  }
  const result = await runEntityIndexBench(
    baseUrl,
    apiKey,
    names,
    process.argv.includes('--quick'),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

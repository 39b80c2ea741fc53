import { REVIEW_WINDOWS } from '../contract/reviews.ts';

/** Filters measured in every window: none, each one alone, and all four together. */
const FILTERS: Record<string, string>[] = [
  {},
  { status: 'Review' },
  { country: 'GB' },
  { riskLevel: 'High' },
  { type: 'legal-entities' },
  { type: 'natural-persons' },
  { status: 'Escalated', country: 'DE', riskLevel: 'High', type: 'legal-entities' },
];

export interface ReviewQueueCase {
  due: string;
  filter: string;
  samples: number;
  latencyMs: { p50: number; p95: number; max: number };
}

export interface ReviewQueueBenchResult {
  samplesPerCase: number;
  cases: ReviewQueueCase[];
  /** Every request of every case together. */
  overall: { p50: number; p95: number; max: number };
  worstCaseP95: number;
}

const round = (value: number) => Number(value.toFixed(2));

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/** p50, p95 and the slowest of one case's latencies, in ms. */
export function latencySummary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/**
 * The review queue's latency, one request at a time (a reviewer's view, nothing queued ahead):
 * every window with each filter, walking pages of 50 by cursor so that no request repeats
 * another (no cache can answer; the queue has none). Each answer includes the window counts.
 */
export async function runReviewQueueBench(
  baseUrl: string,
  apiKey: string,
  quick: boolean,
): Promise<ReviewQueueBenchResult> {
  const samplesPerCase = quick ? 10 : 40;
  const cases: ReviewQueueCase[] = [];
  const all: number[] = [];
  for (const due of REVIEW_WINDOWS) {
    for (const filter of FILTERS) {
      const latencies: number[] = [];
      let cursor: string | null = null;
      for (let sample = 0; sample < samplesPerCase; sample++) {
        const query = new URLSearchParams({ due, ...filter, limit: '50' });
        if (cursor) query.set('cursor', cursor);
        const started = performance.now();
        const response = await fetch(`${baseUrl}/api/v2/reviews?${query.toString()}`, {
          headers: { 'X-API-Key': apiKey },
        });
        const text = await response.text();
        latencies.push(performance.now() - started);
        if (!response.ok) {
          throw new Error(`review queue ${query.toString()}: ${String(response.status)} ${text}`);
        }
        cursor = (JSON.parse(text) as { nextCursor: string | null }).nextCursor;
      }
      all.push(...latencies);
      cases.push({
        due,
        filter: new URLSearchParams(filter).toString() || '(none)',
        samples: latencies.length,
        latencyMs: latencySummary(latencies),
      });
    }
  }
  return {
    samplesPerCase,
    cases,
    overall: latencySummary(all),
    worstCaseP95: Math.max(...cases.map((row) => row.latencyMs.p95)),
  };
}

/** Standalone: `npx tsx bench/review-queue-bench.ts <base URL> <API key> [--quick]`. */
if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const [baseUrl, apiKey] = process.argv.slice(2);
  if (!baseUrl || !apiKey) {
    process.stderr.write(
      'Usage: npx tsx bench/review-queue-bench.ts <base URL> <API key> [--quick]\n',
    );
    process.exit(2);
  }
  const result = await runReviewQueueBench(baseUrl, apiKey, process.argv.includes('--quick'));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

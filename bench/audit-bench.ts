import { performance } from 'node:perf_hooks';
import { createAuditTrail } from '../server/audit/audit-trail.ts';
import { openDatabase } from '../server/db/database.ts';
import type { BenchFixture } from './server-bench.ts';

const round = (value: number) => Number(value.toFixed(3));

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/**
 * What one audit event costs a request: the append a list request makes before its answer
 * (a write transaction that reads the chain's head and inserts the hashed event), timed
 * in-process on the bench's own database, one at a time as requests make them.
 */
export async function measureAuditWrite(fixture: BenchFixture, samples: number) {
  const { db } = await openDatabase(fixture.dataDir, fixture.databaseUrl);
  try {
    const trail = createAuditTrail(db, () => new Date());
    const timings: number[] = [];
    for (let index = 0; index < samples; index += 1) {
      const started = performance.now();
      await trail.record({
        actor: fixture.username,
        action: 'entity.list',
        requestId: `bench-${String(index)}`,
        clientAddress: '127.0.0.1',
        detail: { query: { limit: 100, start: index, corporateVerification: true } },
      });
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    return {
      samples,
      p50Ms: round(percentile(timings, 0.5)),
      p95Ms: round(percentile(timings, 0.95)),
    };
  } finally {
    await db.destroy();
  }
}

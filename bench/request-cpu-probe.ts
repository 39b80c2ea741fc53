/**
 * Server CPU (and PostgreSQL's) per request of two builds side by side: the cached list page, a
 * legal entity by id, the overview's stats, a review queue page, the entity index's first page,
 * and a list page and a company search each missing the cache; 10 connections, on a 2,000-entity
 * fixture each, the order of the builds alternating by round; prints each round and the medians.
 * Reads both builds' dist-server/ (`npm run build:server` in each first).
 *
 * Usage: tsx bench/request-cpu-probe.ts <sqlite|postgres> <other build's folder> [rounds] [seconds]
 * [scenario,…]
 */
import autocannon from 'autocannon';
import { createTestDatabase, startThrowawayPostgres } from '../server/testing/postgres-server.ts';
import { cpuMs, postgresServerPid, processTreeCpuMs, startKycServer } from './processes.ts';
import { median } from './report.ts';
import { BENCH_DOCUMENT_KEY, buildFixture } from './server-bench.ts';

const [engine = 'sqlite', otherBuild, roundsArgument = '4', secondsArgument = '8', only] =
  process.argv.slice(2);
if (!otherBuild || (engine !== 'sqlite' && engine !== 'postgres')) {
  process.stdout.write(
    'Usage: tsx bench/request-cpu-probe.ts <sqlite|postgres> <other build folder> [rounds] [seconds] [scenario,…]\n',
  );
  process.exit(2);
}
const rounds = Number(roundsArgument);
const seconds = Number(secondsArgument);
const postgres = engine === 'postgres' ? await startThrowawayPostgres() : undefined;

interface Side {
  label: string;
  baseUrl: string;
  pid: number;
  databasePid: number | undefined;
  apiKey: string;
  entityId: string;
  stop: () => Promise<void>;
}

const sides: Side[] = [];
const figures = new Map<
  string,
  { perSecond: number[]; serverMs: number[]; databaseMs: number[] }
>();
try {
  for (const [label, cwd] of [
    ['other', otherBuild],
    ['this', process.cwd()],
  ] as const) {
    const databaseUrl = postgres ? await createTestDatabase(postgres.url) : undefined;
    const { fixture } = await buildFixture(2000, databaseUrl);
    const server = await startKycServer(
      fixture.dataDir,
      databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: BENCH_DOCUMENT_KEY } : {},
      cwd,
    );
    const first = (await (
      await fetch(`${server.baseUrl}/api/v2/entities?limit=1`, {
        headers: { 'X-API-Key': fixture.apiKey },
      })
    ).json()) as { data: { id: string }[] };
    sides.push({
      label,
      baseUrl: server.baseUrl,
      pid: server.pid,
      databasePid: databaseUrl ? await postgresServerPid(databaseUrl) : undefined,
      apiKey: fixture.apiKey,
      entityId: first.data[0]?.id ?? '',
      stop: () => server.stop(),
    });
  }
  // Each request of a miss scenario asks for another page or fragment (more than its cache keeps).
  let sent = 0;
  const consonants = 'bcdfghklmnprstvz';
  const allScenarios: Record<string, (side: Side) => string> = {
    'cached list': () =>
      '/api/v2/entities?limit=100&supportingDocuments=true&corporateVerification=true',
    'by id': (side) => `/api/v2/entities/legal-entities/${side.entityId}`,
    // The overview and a queue page also make uncached per-caller counts.
    stats: () => '/api/v2/stats',
    'review queue': () => '/api/v2/reviews?due=30d&riskLevel=High&limit=50',
    'entity index': () => '/api/v2/entity-index?sort=name&order=asc&limit=25',
    'list miss': () =>
      `/api/v2/entities?limit=100&supportingDocuments=true&corporateVerification=true&start=${String((sent++ * 37) % 1900)}`,
    'search miss': () => {
      const n = sent++;
      const fragment = `${consonants.charAt(n % 16)}${'aeiou'.charAt((n >> 4) % 5)}${consonants.charAt(Math.floor(n / 80) % 16)}`;
      return `/api/v2/entities/legal-entities?companyName=${fragment}`;
    },
  };
  const scenarios = only
    ? Object.fromEntries(only.split(',').map((name) => [name, allScenarios[name]] as const))
    : allScenarios;
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, pathOf] of Object.entries(scenarios)) {
      if (!pathOf)
        throw new Error(`No scenario "${name}": ${Object.keys(allScenarios).join(', ')}`);
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const options = {
          url: `${side.baseUrl}${pathOf(side)}`,
          connections: 10,
          headers: { 'X-API-Key': side.apiKey },
          requests: [
            { setupRequest: (request: autocannon.Request) => ({ ...request, path: pathOf(side) }) },
          ],
        };
        await autocannon({ ...options, duration: 2 });
        const serverBefore = cpuMs(side.pid) ?? 0;
        const databaseBefore = side.databasePid ? (processTreeCpuMs(side.databasePid) ?? 0) : 0;
        const result = await autocannon({ ...options, duration: seconds });
        const requests = result.requests.total;
        const serverMs = ((cpuMs(side.pid) ?? 0) - serverBefore) / requests;
        const databaseMs = side.databasePid
          ? ((processTreeCpuMs(side.databasePid) ?? 0) - databaseBefore) / requests
          : 0;
        if (result.non2xx > 0)
          throw new Error(`${name}, ${side.label}: ${String(result.non2xx)} errors`);
        const key = `${name}, ${side.label} build`;
        const kept = figures.get(key) ?? { perSecond: [], serverMs: [], databaseMs: [] };
        kept.perSecond.push(result.requests.average);
        kept.serverMs.push(serverMs);
        kept.databaseMs.push(databaseMs);
        figures.set(key, kept);
        process.stdout.write(
          `round ${String(round + 1)} ${key}: ${result.requests.average.toFixed(0)} req/s, server ${serverMs.toFixed(3)} ms, database ${databaseMs.toFixed(3)} ms a request\n`,
        );
      }
    }
  }
  process.stdout.write(`\nMedians of ${String(rounds)} rounds on ${engine}:\n`);
  for (const [key, kept] of figures)
    process.stdout.write(
      `${key}: ${median(kept.perSecond).toFixed(0)} req/s, server ${median(kept.serverMs).toFixed(3)} ms, database ${median(kept.databaseMs).toFixed(3)} ms a request\n`,
    );
} finally {
  for (const side of sides) await side.stop();
  await postgres?.stop();
}

/**
 * PostgreSQL's slowest scenarios of the server bench (the cache-missing list and name searches,
 * the 5 MB document, the entity index by name), measured on a database seeded once and kept, for
 * this checkout and with `--compare DIR` another one beside it, alternating scenario by scenario.
 * Each side gets its own copy of the seeded database (`create database … template`), so one
 * side's migrations never meet the other's code. Records throughput and the CPU a request cost
 * the server and PostgreSQL (its postmaster and every backend, from /proc).
 *
 * Setup, once: a PostgreSQL server whose role may create databases, a database seeded with
 * `DATABASE_URL=… DOCUMENT_KEY=… npx tsx server/seed/cli.ts --entities 100000 --persons 50000`
 * and an account from `npm run admin -- account:create bench --json`.
 *
 * Usage: tsx bench/postgres-probe.ts --database-url URL --document-key KEY --api-key KEY
 *          [--compare DIR] [--seconds 8] [--rounds 2] [--only name,…]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createRandom } from '../server/seed/random.ts';
import { searchFragments } from './search-fragments.ts';
import { legalEntityPayload } from '../server/testing/test-payloads.ts';
import { paddedPdf } from './large-pdf.ts';
import { cpuMs, freePort, postgresServerPid, processTreeCpuMs, startProcess } from './processes.ts';

const { values: options } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'document-key': { type: 'string' },
    'api-key': { type: 'string' },
    compare: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
});

const databaseUrl = options['database-url'];
const documentKey = options['document-key'];
const apiKey = options['api-key'];
if (!databaseUrl || !documentKey || !apiKey) {
  throw new Error('--database-url, --document-key and --api-key are required (see the header).');
}
const seconds = Number(options.seconds);
const rounds = Number(options.rounds);

interface Side {
  name: string;
  dir: string;
}

const sides: Side[] = [
  ...(options.compare ? [{ name: 'compare', dir: path.resolve(options.compare) }] : []),
  { name: 'this', dir: process.cwd() },
];

/** Bundles a side's server as `npm run build:server` does, into its own folder. */
function buildServer(side: Side): void {
  execFileSync(
    path.resolve('node_modules/.bin/esbuild'),
    [
      'server/main.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--packages=external',
      '--log-level=warning',
      '--outfile=dist-server/probe-main.mjs',
    ],
    { cwd: side.dir, stdio: 'inherit' },
  );
}

/** The side's own copy of the seeded database, made once and kept. */
async function databaseOf(side: Side, seeded: string): Promise<string> {
  const url = new URL(seeded);
  const template = url.pathname.slice(1);
  const name = `${template}_probe_${side.name}`;
  const client = new pg.Client({ connectionString: seeded.replace(/\/[^/]*$/, '/postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name} template ${template}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

async function startServer(side: Side, sideDatabaseUrl: string) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-pg-probe-'));
  const server = await startProcess(
    process.execPath,
    [
      '--max-semi-space-size=4',
      '--no-memory-reducer',
      '--heap-growing-percent=100',
      'dist-server/probe-main.mjs',
    ],
    {
      MALLOC_MMAP_THRESHOLD_: '1048576',
      DATA_DIR: dataDir,
      DATABASE_URL: sideDatabaseUrl,
      DOCUMENT_KEY: documentKey ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    `http://127.0.0.1:${String(port)}/healthz`,
    side.dir,
  );
  return { ...server, baseUrl: `http://127.0.0.1:${String(port)}`, dataDir };
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { 'X-API-Key': apiKey ?? '' } });
  if (!response.ok) throw new Error(`${url}: ${String(response.status)}`);
  return ((await response.json()) as { data: unknown }).data;
}

/** The 5 MB document the bench reads, created once per database (found again by its file name). */
async function documentIdOf(baseUrl: string): Promise<string> {
  const api = `${baseUrl}/api/v2`;
  const payload = legalEntityPayload();
  payload.corporateInformation.companyName = 'Probe Five Megabytes Ltd';
  const found = (await getJson(
    `${api}/entities/legal-entities?companyName=${encodeURIComponent('Probe Five Megabytes')}`,
  )) as string[];
  const existing = found[0];
  if (existing) {
    const entity = (await getJson(`${api}/entities/legal-entities/${existing}`)) as {
      supportingDocuments: { documentId: string }[];
    };
    const id = entity.supportingDocuments[0]?.documentId;
    if (id) return id;
  }
  payload.supportingDocuments = [
    {
      fileName: 'probe-5mb.pdf',
      type: 'Other',
      mimeType: 'application/pdf',
      file: paddedPdf(5 * 1024 * 1024).toString('base64'),
    },
  ];
  const response = await fetch(`${api}/entities/legal-entities`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey ?? '', 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`create: ${String(response.status)} ${text}`);
  const created = JSON.parse(text) as { data: { supportingDocuments: { documentId: string }[] } };
  const id = created.data.supportingDocuments[0]?.documentId;
  if (!id) throw new Error('the created legal entity has no document');
  return id;
}

interface Scenario {
  name: string;
  connections: number;
  paths: (documentId: string) => string[];
}

/** The bench's cache-missing paths: 1,000 pages and fragments, drawn as server-bench.ts draws them. */
async function scenarios(baseUrl: string): Promise<Scenario[]> {
  const api = `${baseUrl}/api/v2`;
  const random = createRandom(20_261_122);
  const pageStarts = Array.from({ length: 1_000 }, (_, page) => page * 100);
  const missPages = random.sample(pageStarts, 1_000);
  const namesFrom = async (type: string, field: (entity: Record<string, unknown>) => unknown) => {
    const names: string[] = [];
    // Starts under 50,000: the seed makes half as many natural persons as legal entities.
    for (const start of random.sample(pageStarts.slice(0, 500), 10)) {
      const page = (await getJson(
        `${api}/entities?type=${type}&limit=100&start=${String(start)}`,
      )) as Record<string, unknown>[];
      for (const entity of page) {
        const name = field(entity);
        if (typeof name === 'string') names.push(name);
      }
    }
    return names;
  };
  const companies = searchFragments(
    random,
    await namesFrom(
      'legal-entities',
      (entity) =>
        (entity.corporateInformation as { companyName?: string } | undefined)?.companyName,
    ),
  );
  const lastNames = searchFragments(
    random,
    await namesFrom(
      'natural-persons',
      (entity) => (entity.personalInformation as { lastName?: string } | undefined)?.lastName,
    ),
  );
  const list = missPages.map(
    (start) =>
      `/api/v2/entities?limit=100&supportingDocuments=true&corporateVerification=true&start=${String(start)}`,
  );
  return [
    { name: 'list miss', connections: 10, paths: () => list },
    {
      name: 'search companyName miss',
      connections: 1,
      paths: () =>
        companies.map(
          (fragment) =>
            `/api/v2/entities/legal-entities?companyName=${encodeURIComponent(fragment)}`,
        ),
    },
    {
      name: 'search lastName miss',
      connections: 1,
      paths: () =>
        lastNames.map(
          (fragment) => `/api/v2/entities/natural-persons?lastName=${encodeURIComponent(fragment)}`,
        ),
    },
    { name: 'document 5 MB', connections: 4, paths: (id) => [`/api/v2/documents/${id}`] },
    {
      name: 'entity-index name asc',
      connections: 10,
      paths: () => ['/api/v2/entity-index?sort=name&order=asc&limit=25'],
    },
  ];
}

interface Measured {
  side: string;
  scenario: string;
  requestsPerSecond: number;
  serverMs: number;
  databaseMs: number;
  non2xx: number;
}

async function measure(
  side: string,
  baseUrl: string,
  scenario: Scenario,
  paths: string[],
  serverPid: number,
  postmasterPid: number,
): Promise<Measured> {
  let next = 0;
  const serverBefore = cpuMs(serverPid) ?? 0;
  const databaseBefore = processTreeCpuMs(postmasterPid) ?? 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: `${baseUrl}${paths[0] ?? '/'}`,
        headers: { 'X-API-Key': apiKey ?? '' },
        connections: scenario.connections,
        duration: seconds,
        requests: [
          {
            setupRequest: (request: autocannon.Request) => ({
              ...request,
              path: paths[next++ % paths.length] ?? '/',
            }),
          },
        ],
      },
      (error: unknown, finished) => {
        if (error) reject(error instanceof Error ? error : new Error('autocannon failed'));
        else resolve(finished);
      },
    );
  });
  const requests = Math.max(1, result.requests.total);
  return {
    side,
    scenario: scenario.name,
    requestsPerSecond: Math.round((result.requests.total / seconds) * 10) / 10,
    serverMs: Math.round((((cpuMs(serverPid) ?? 0) - serverBefore) / requests) * 1000) / 1000,
    databaseMs:
      Math.round((((processTreeCpuMs(postmasterPid) ?? 0) - databaseBefore) / requests) * 1000) /
      1000,
    non2xx: result.non2xx,
  };
}

async function main() {
  const seeded = databaseUrl ?? '';
  const only = options.only?.split(',');
  const postmasterPid = await postgresServerPid(seeded);
  if (postmasterPid === undefined) throw new Error('no postmaster pid (Linux only)');
  const started = [];
  for (const side of sides) {
    buildServer(side);
    const server = await startServer(side, await databaseOf(side, seeded));
    started.push({ side, server, documentId: await documentIdOf(server.baseUrl) });
  }
  const results: Measured[] = [];
  try {
    const first = started[0];
    if (!first) return;
    const all = (await scenarios(first.server.baseUrl)).filter(
      (scenario) => !only || only.some((name) => scenario.name.startsWith(name)),
    );
    for (let round = 0; round < rounds; round++) {
      for (const scenario of all) {
        for (const { side, server, documentId } of started) {
          const row = await measure(
            side.name,
            server.baseUrl,
            scenario,
            scenario.paths(documentId),
            server.pid,
            postmasterPid,
          );
          results.push(row);
          process.stdout.write(
            `${row.scenario.padEnd(26)} ${row.side.padEnd(8)} ${String(row.requestsPerSecond).padStart(8)} req/s  server ${String(row.serverMs)} ms + database ${String(row.databaseMs)} ms a request  non-2xx ${String(row.non2xx)}  load ${os.loadavg()[0]?.toFixed(2) ?? '?'}\n`,
          );
        }
      }
    }
  } finally {
    for (const { server } of started) {
      await server.stop();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

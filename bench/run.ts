import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runConsoleBench } from './console-bench.ts';
import { buildFixture, runServerBench } from './server-bench.ts';
import { resultsMarkdown } from './report.ts';
import {
  createTestDatabase,
  postgresBinDir,
  startThrowawayPostgres,
} from '../server/testing/postgres-server.ts';

const USAGE = `Usage: npm run bench -- [server] [console] [--quick] [--keep] [--no-postgres]

Measures the server (autocannon against the built server on a 100,000-entity database, with the
in-memory limit and json-server 0.17 as references) on SQLite and then on PostgreSQL (a throwaway
server from Debian's binaries, one instance and then two on the cache-missing scenarios), and the
console (Playwright in Chromium against the built console). Without a part name both run.
Results: bench/results/<date>.json/.md. Timings are recorded, never judged: the command fails
only when a benchmark cannot run.

  --quick        2,000 entities and 3 s per scenario: a smoke run
  --keep         keep the generated DATA_DIR and print where it is
  --no-postgres  the server part on SQLite only
`;

function chromiumVersion(): string {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function machine() {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Number((os.totalmem() / 1024 ** 3).toFixed(1)),
    loadAverageAtStart: os.loadavg().map((value) => Number(value.toFixed(2))),
    node: process.version,
    chromium: chromiumVersion(),
    platform: `${os.type()} ${os.release()}`,
  };
}

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: 'boolean' },
      keep: { type: 'boolean' },
      help: { type: 'boolean' },
      'no-postgres': { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = positionals.filter((part) => part !== 'server' && part !== 'console');
  if (unknown.length > 0) throw new Error(`Unknown part: ${unknown.join(', ')}. See --help.`);
  const parts = positionals.length > 0 ? new Set(positionals) : new Set(['server', 'console']);
  const quick = values.quick ?? false;
  const started = new Date();
  const record: Record<string, unknown> = {
    startedAt: started.toISOString(),
    quick,
    machine: machine(),
  };
  process.stdout.write(`Machine: ${JSON.stringify(record.machine)}\n`);

  // Both parts measure what `npm start` serves: the built console and the bundled server.
  process.stdout.write('Building the console and the server (npm run build)\n');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  const { fixture, seed } = await buildFixture(quick);
  record.seed = seed;
  try {
    if (parts.has('server')) {
      const sqlite = await runServerBench(fixture, quick, {
        references: true,
        twoInstances: false,
      });
      record.server = sqlite;
      if (!values['no-postgres']) {
        const postgres = await benchPostgres(quick);
        record.seedPostgres = postgres.seed;
        record.serverPostgres = postgres.server;
        record.postgresVsSqlite = Object.fromEntries(
          postgres.server.results.map((row) => {
            const same = sqlite.results.find((other) => other.name === row.name);
            return [
              row.name,
              {
                throughput: same ? round2(row.requestsPerSecond / same.requestsPerSecond) : null,
                p95: same ? round2(row.latencyMs.p95 / same.latencyMs.p95) : null,
              },
            ];
          }),
        );
      }
    }
    if (parts.has('console')) record.console = await runConsoleBench(fixture, quick);
  } finally {
    if (values.keep) process.stdout.write(`DATA_DIR kept: ${fixture.dataDir}\n`);
    else fs.rmSync(fixture.dataDir, { recursive: true, force: true });
  }
  record.finishedAt = new Date().toISOString();
  record.loadAverageAtEnd = os.loadavg().map((value) => Number(value.toFixed(2)));

  const stamp = started.toISOString().replace(/:/g, '-').slice(0, 19);
  const base = path.join('bench', 'results', `${stamp}${quick ? '-quick' : ''}`);
  fs.mkdirSync(path.dirname(base), { recursive: true });
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
  const markdown = resultsMarkdown(record);
  fs.writeFileSync(`${base}.md`, markdown);
  process.stdout.write(`\n${markdown}\nRecorded ${base}.json and ${base}.md\n`);
}

const round2 = (value: number) => Number(value.toFixed(2));

/** The server part again on a throwaway PostgreSQL, seeded the same way. */
async function benchPostgres(quick: boolean) {
  process.stdout.write(`PostgreSQL from ${postgresBinDir()}\n`);
  const postgres = await startThrowawayPostgres();
  try {
    const databaseUrl = await createTestDatabase(postgres.url);
    const { fixture, seed } = await buildFixture(quick, databaseUrl);
    try {
      const server = await runServerBench(fixture, quick, {
        references: false,
        twoInstances: true,
      });
      return { seed, server };
    } finally {
      fs.rmSync(fixture.dataDir, { recursive: true, force: true });
    }
  } finally {
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

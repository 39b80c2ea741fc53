import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A PostgreSQL server of our own in a temporary directory, for tests and benchmarks. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the maintenance database. */
  url: string;
  stop(): Promise<void>;
  /** `pg_ctl stop -m immediate`, keeping the data: a crash, for the fault suite. */
  crash(): Promise<void>;
  /** Starts it again on the same port and data (after crash()); waits until it accepts connections. */
  start(): Promise<void>;
}

/** Debian's binaries (package `postgresql`): the newest version installed under /usr/lib/postgresql. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      'PostgreSQL is not installed: apt-get install postgresql (bash .ci/run does), or set DATABASE_URL.',
    );
  }
  return path.join(root, newest, 'bin');
}

/**
 * initdb refuses to run as root, so as root the server runs as the `postgres` user the Debian
 * package creates; anyone else runs it as themselves.
 */
async function asServerUser(command: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

/** Starts a fresh server on a free loopback port; trust authentication, loopback only. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-pg-'));
  if (process.getuid?.() === 0) await run('chown', ['postgres', dir]);
  const dataDir = path.join(dir, 'db');
  await asServerUser(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const port = await freePort();
  const start = () =>
    asServerUser(path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      // fsync off: a test server's data need not survive a power cut, and it saves seconds per run.
      `-p ${String(port)} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
      'start',
    ]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${String(port)}/postgres`,
    async stop() {
      await asServerUser(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    async crash() {
      await asServerUser(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
    },
    async start() {
      await start();
    },
  };
}

/**
 * A new database on the server at `serverUrl`, its URL: empty, or a copy of the database named
 * `template` (which nothing may be connected to while it is copied).
 */
export async function createTestDatabase(serverUrl: string, template?: string): Promise<string> {
  const name = `kyc_test_${crypto.randomUUID().replaceAll('-', '')}`;
  if (template !== undefined && !/^[a-z0-9_]+$/.test(template)) {
    throw new Error(`not a test database name: ${template}`);
  }
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(
      template === undefined
        ? `create database ${name}`
        : `create database ${name} template ${template}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createTestDatabase, closing whatever still holds it. */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

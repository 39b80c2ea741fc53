import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { legalEntityResponseSchema } from '../../contract/entities.ts';
import { createAccount } from '../auth/accounts.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  TEST_DOCUMENT_KEY,
  testEngine,
} from '../testing/harness.ts';
import { openDatabase } from './database.ts';

interface RunningServer {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Starts the real entry point (`server/main.ts`) as its own process: node itself with tsx's
 * loader, not the tsx command, which runs the server in a child of its own that a SIGKILL of
 * the command would leave running.
 */
function startProcess(dataDir: string, databaseUrl?: string): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)}: ${output}`)));
  });
}

function createPayload(n: number) {
  return {
    corporateInformation: {
      companyName: `Parallel Writer ${n} Ltd`,
      registrationNumber: `PW-${n}`,
      country: 'GB',
    },
    primaryContact: { firstName: 'Pat', lastName: `Writer ${n}`, email: `pat${n}@writers.example` },
  };
}

test.runIf(testEngine === 'sqlite')(
  'two server processes on one DATA_DIR start, share the writes, and leave a sound database',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-two-'));
    const servers = await Promise.all([startProcess(dataDir), startProcess(dataDir)]);
    try {
      // Exactly one of them loaded the demo data; the other found it there.
      const demoLoads = servers.filter((s) => s.output().includes('Demo data loaded')).length;
      expect(demoLoads).toBe(1);

      const { db } = await openDatabase(dataDir);
      const { apiKey } = await createAccount(db, 'parallel');
      const before = Number(
        (
          await db
            .selectFrom('entities')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      await db.destroy();

      const writes = Array.from({ length: 30 }, (_, n) => {
        const server = servers[n % 2];
        if (!server) throw new Error('no server');
        return fetch(`${server.url}/api/v2/entities/legal-entities`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
          body: JSON.stringify(createPayload(n)),
        }).then((response) => response.status);
      });
      expect(await Promise.all(writes)).toEqual(Array.from({ length: 30 }, () => 201));

      const sqlite = new SQLite(path.join(dataDir, 'kyc-desk.sqlite'), { readonly: true });
      try {
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(sqlite.pragma('foreign_key_check')).toEqual([]);
        const count = sqlite.prepare('select count(*) as n from entities').get() as { n: number };
        // Each create adds the legal entity and its primary contact.
        expect(count.n).toBe(before + 60);
      } finally {
        sqlite.close();
      }
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
  180_000,
);

test.runIf(testEngine === 'sqlite')(
  'a server creating its database while another process holds the write lock waits for it',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-held-'));
    // The other process has created the file and is still writing it, in SQLite's default mode.
    const other = new SQLite(path.join(dataDir, 'kyc-desk.sqlite'));
    other.exec('begin immediate; create table held_by_the_other (x)');
    const release = setTimeout(() => other.exec('commit'), 300);
    try {
      const started = Date.now();
      const { db } = await openDatabase(dataDir);
      try {
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
        const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
        expect(rows).toEqual([{ journal_mode: 'wal' }]);
      } finally {
        await db.destroy();
      }
    } finally {
      clearTimeout(release);
      other.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
);

test('every create answered 201 survives kill -9 of the server', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-kill-'));
  const databaseUrl = await newTestDatabaseUrl();
  let server = await startProcess(dataDir, databaseUrl);
  try {
    const { db } = await openDatabase(dataDir, databaseUrl);
    const { apiKey } = await createAccount(db, 'crash-witness');
    await db.destroy();

    const acknowledged: string[] = [];
    const killed = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
    const writes = Array.from({ length: 40 }, (_, n) =>
      fetch(`${server.url}/api/v2/entities/legal-entities`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify(createPayload(1000 + n)),
      })
        .then(async (response) => {
          if (response.status !== 201) return;
          acknowledged.push(legalEntityResponseSchema.parse(await response.json()).data.id);
          if (acknowledged.length === 10) server.child.kill('SIGKILL');
        })
        // Requests in flight when the process dies fail: the client never heard 201 for them.
        .catch(() => undefined),
    );
    await Promise.all(writes);
    if (acknowledged.length < 10) server.child.kill('SIGKILL');
    await killed;
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);

    server = await startProcess(dataDir, databaseUrl);
    for (const id of acknowledged) {
      const response = await fetch(`${server.url}/api/v2/entities/legal-entities/${id}`, {
        headers: { 'X-API-Key': apiKey },
      });
      expect(response.status, id).toBe(200);
    }
  } finally {
    server.child.kill('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropTestDatabaseUrl(databaseUrl);
  }
}, 180_000);

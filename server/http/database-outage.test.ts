import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { createApp, type App } from '../app.ts';
import { createAccount } from '../auth/accounts.ts';
import { loadConfig } from '../env.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  TEST_DOCUMENT_KEY,
  testEngine,
} from '../testing/harness.ts';

/**
 * A TCP relay in front of PostgreSQL: `cut()` refuses new connections and ends the open ones, as
 * a stopped server does, without stopping the server every other test file of the run shares.
 */
async function startRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server = net.createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    async restore() {
      await listen(port);
    },
  };
}

type LogLine = { level: number; msg: string; err?: unknown };

async function appWithLog(databaseUrl: string | undefined) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-outage-'));
  const lines: string[] = [];
  const app = await createApp(
    {
      ...loadConfig({
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY } : {}),
      }),
      staticDir: undefined,
    },
    { logger: { level: 'info', destination: { write: (line) => lines.push(line) } } },
  );
  const { apiKey } = await createAccount(app.services.db, 'outage-reviewer');
  const list = () =>
    app.inject({
      method: 'GET',
      url: '/api/v2/entities?limit=1',
      headers: { 'X-API-Key': apiKey },
    });
  const logged = () => lines.map((line) => JSON.parse(line) as LogLine);
  return { app, dataDir, list, logged };
}

function expectOutageAnswer(answer: Awaited<ReturnType<App['inject']>>) {
  expect(answer.statusCode).toBe(503);
  expect(answer.headers['retry-after']).toBe('5');
  const envelope = errorEnvelopeSchema.parse(answer.json());
  expect(envelope).toMatchObject({ code: 503, status: 'error', retryAfter: 5, data: [] });
  expect(envelope.message).toMatch(/unavailable/);
}

test.runIf(testEngine === 'postgres')(
  'PostgreSQL unreachable: 503 with Retry-After, one error line, and back without a restart',
  async () => {
    const databaseUrl = await newTestDatabaseUrl();
    if (databaseUrl === undefined) throw new Error('no test database');
    const relay = await startRelay(new URL(databaseUrl));
    const viaRelay = new URL(databaseUrl);
    viaRelay.port = String(relay.port);
    const { app, dataDir, list, logged } = await appWithLog(viaRelay.toString());
    try {
      expect((await list()).statusCode).toBe(200);
      const before = logged().length;

      await relay.cut();
      for (let attempt = 0; attempt < 20; attempt += 1) expectOutageAnswer(await list());
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.headers['retry-after']).toBe('5');
      expect(health.json()).toMatchObject({ reason: 'database unavailable', database: 'down' });

      const during = logged().slice(before);
      const errors = during.filter((line) => line.level >= 50);
      expect(errors.map((line) => line.msg)).toEqual([
        'database unavailable: requests get 503 until it answers',
      ]);
      // No stack per request: only the pool's own note of each connection it lost (at most 10).
      expect(during.filter((line) => line.err !== undefined)).toEqual([]);
      expect(during.filter((line) => line.level === 40).length).toBeLessThanOrEqual(10);

      await relay.restore();
      expect((await list()).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
        status: 'ok',
      });
      const back = logged().filter((line) => line.msg === 'database back: queries succeed again');
      expect(back).toHaveLength(1);
    } finally {
      await relay.cut();
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  },
);

test.runIf(testEngine === 'sqlite')(
  "SQLite's write lock held past busy_timeout: 503 with Retry-After, then back once it is free",
  async () => {
    const { app, dataDir, list, logged } = await appWithLog(undefined);
    // Another process (an admin command, a second server) holding the write lock for too long.
    const other = new SQLite(path.join(dataDir, 'kyc-desk.sqlite'));
    try {
      expect((await list()).statusCode).toBe(200);
      other.prepare('begin immediate').run();
      expectOutageAnswer(await list());
      expect(
        logged()
          .filter((line) => line.level >= 50)
          .map((line) => line.msg),
      ).toEqual(['database unavailable: requests get 503 until it answers']);
      other.prepare('rollback').run();

      expect((await list()).statusCode).toBe(200);
      expect(logged().filter((line) => line.msg.startsWith('database back'))).toHaveLength(1);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
        status: 'ok',
      });
    } finally {
      other.close();
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
);

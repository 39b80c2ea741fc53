import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createApp, type App } from '../app.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { issueToken } from '../auth/tokens.ts';
import type { Engine } from '../db/engine.ts';
import { loadConfig } from '../env.ts';
import { createTestDatabase, dropTestDatabase } from './postgres-server.ts';

/**
 * `gateway`: requests go through a gateway-mode app whose upstream is the embedded server, so the
 * same API tests check both modes (vitest project server-gateway sets KYC_TEST_MODE=gateway).
 */
export type TestMode = 'embedded' | 'gateway';

export const testMode: TestMode = process.env.KYC_TEST_MODE === 'gateway' ? 'gateway' : 'embedded';

/** The database engine under test: vitest project server-postgres sets KYC_TEST_ENGINE=postgres. */
export const testEngine: Engine =
  process.env.KYC_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The master key of the documents on PostgreSQL, which requires one; SQLite uses its key file. */
export const TEST_DOCUMENT_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * A fresh, empty PostgreSQL database on this run's server (postgres-global-setup.ts) when the
 * engine under test is PostgreSQL; undefined for SQLite, whose database lives in DATA_DIR.
 */
export async function newTestDatabaseUrl(): Promise<string | undefined> {
  return testEngine === 'postgres' ? createTestDatabase(inject('postgresServerUrl')) : undefined;
}

/**
 * A fresh PostgreSQL database already at the newest schema (a copy of the run's migrated template)
 * when the engine under test is PostgreSQL; undefined for SQLite. The database a test server
 * starts on unless the test gives one; the migrations themselves are tested from empty databases.
 */
async function newMigratedTestDatabaseUrl(): Promise<string | undefined> {
  return testEngine === 'postgres'
    ? createTestDatabase(inject('postgresServerUrl'), inject('postgresMigratedTemplate'))
    : undefined;
}

/** Drops a database from newTestDatabaseUrl. */
export async function dropTestDatabaseUrl(databaseUrl: string | undefined): Promise<void> {
  if (databaseUrl !== undefined) await dropTestDatabase(databaseUrl);
}

export interface TestServer {
  mode: TestMode;
  /** The embedded server (the upstream in gateway mode): its services hold the database. */
  app: App;
  /** Gateway mode: the gateway itself, with its own database and audit trail. */
  gateway: App | undefined;
  /** Where requests go: the embedded server, or the gateway in front of it. */
  baseUrl: string;
  dataDir: string;
  /** The PostgreSQL database when the engine under test is PostgreSQL. */
  databaseUrl: string | undefined;
  /** A reviewer account created for the test, with its one-time password and API key. */
  account: { username: string; password: string; apiKey: string };
  /** A fresh Bearer JWT for `account`, issued directly (the sign-in route has its own tests). */
  token(): Promise<string>;
  /**
   * Headers that authenticate as `account`; in gateway mode an API key would be dropped by the
   * gateway, so `apiKey` gives a Bearer token there too (the gateway holds the key).
   */
  authHeaders(auth: 'apiKey' | 'token'): Promise<Record<string, string>>;
  /** fetch against the server; `auth` picks the credential sent. */
  request(
    pathAndQuery: string,
    init?: RequestInit & { auth?: 'apiKey' | 'token' | 'none' },
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
  close(): Promise<void>;
}

/**
 * A real server on a temporary DATA_DIR (a real SQLite file, or a fresh PostgreSQL database when
 * that is the engine under test) listening on a free loopback port. Pass another server's
 * `dataDir` and `databaseUrl` to start a second instance on the same database.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    dataDir?: string;
    databaseUrl?: string;
    mode?: TestMode;
  } = {},
): Promise<TestServer> {
  const mode = options.mode ?? testMode;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-test-')));
  const databaseUrl = options.databaseUrl ?? (await newMigratedTestDatabaseUrl());
  const databaseEnv: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY }
    : {};
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...databaseEnv,
      ...options.env,
    }),
    staticDir: undefined,
  };
  const app = await createApp(config, {
    logger: false,
    ...(options.now ? { now: options.now } : {}),
  });
  const upstreamUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const username = `reviewer-${Math.random().toString(36).slice(2, 8)}`;
  const account = await createAccount(app.services.db, username);
  const portalEnv = Object.fromEntries(
    Object.entries(options.env ?? {}).filter(([name]) => name.startsWith('PORTAL_DOMAIN')),
  );
  const gateway =
    mode === 'gateway'
      ? await createApp(
          {
            ...loadConfig({
              // A database of its own, as a real gateway has (client-update configurations, history).
              DATA_DIR: path.join(dataDir, 'gateway'),
              PORT: '0',
              LOG_LEVEL: 'silent',
              KYC_UPSTREAM_URL: upstreamUrl,
              KYC_UPSTREAM_API_KEY: account.apiKey,
              ...portalEnv,
            }),
            staticDir: undefined,
          },
          { logger: false },
        )
      : undefined;
  const baseUrl = gateway ? await gateway.listen({ port: 0, host: '127.0.0.1' }) : upstreamUrl;

  async function token() {
    const row = await accountsRepository(app.services.db).findByUsername(username);
    if (!row) throw new Error('test account vanished');
    return (await issueToken(app.services, row)).token;
  }

  async function authHeaders(auth: 'apiKey' | 'token'): Promise<Record<string, string>> {
    if (auth === 'apiKey' && mode === 'embedded') return { 'X-API-Key': account.apiKey };
    return { Authorization: `Bearer ${await token()}` };
  }

  return {
    mode,
    app,
    gateway,
    baseUrl,
    dataDir,
    databaseUrl,
    account,
    token,
    authHeaders,
    async request(pathAndQuery, init = {}) {
      const { auth = 'apiKey', ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth !== 'none') {
        for (const [name, value] of Object.entries(await authHeaders(auth))) {
          headers.set(name, value);
        }
      }
      const response = await fetch(baseUrl + pathAndQuery, { ...rest, headers });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the caller reads `text`.
      }
      return { status: response.status, headers: response.headers, body, text };
    },
    async close() {
      await gateway?.close();
      await app.close();
      if (!options.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
      if (!options.databaseUrl) await dropTestDatabaseUrl(databaseUrl);
    },
  };
}

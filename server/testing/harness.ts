import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../app.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { issueToken } from '../auth/tokens.ts';
import { loadConfig } from '../env.ts';

export interface TestServer {
  app: App;
  baseUrl: string;
  dataDir: string;
  /** A reviewer account created for the test, with its one-time password and API key. */
  account: { username: string; password: string; apiKey: string };
  /** A fresh Bearer JWT for `account`, issued directly (the sign-in route has its own tests). */
  token(): Promise<string>;
  /** fetch against the server; `auth` picks the credential sent. */
  request(
    pathAndQuery: string,
    init?: RequestInit & { auth?: 'apiKey' | 'token' | 'none' },
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
  close(): Promise<void>;
}

/** A real server on a temporary DATA_DIR (real SQLite file) listening on a free loopback port. */
export async function startTestServer(
  options: { env?: Record<string, string>; now?: () => Date; dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-test-')));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...options.env }),
    staticDir: undefined,
  };
  const app = await createApp(config, {
    logger: false,
    ...(options.now ? { now: options.now } : {}),
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const username = `reviewer-${Math.random().toString(36).slice(2, 8)}`;
  const account = await createAccount(app.services.db, username);

  async function token() {
    const row = await accountsRepository(app.services.db).findByUsername(username);
    if (!row) throw new Error('test account vanished');
    return (await issueToken(app.services, row)).token;
  }

  return {
    app,
    baseUrl,
    dataDir,
    account,
    token,
    async request(pathAndQuery, init = {}) {
      const { auth = 'apiKey', ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth === 'apiKey') headers.set('X-API-Key', account.apiKey);
      if (auth === 'token') headers.set('Authorization', `Bearer ${await token()}`);
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
      await app.close();
      if (!options.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

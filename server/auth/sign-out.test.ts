import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAdmin } from '../admin/run.ts';
import { openDatabase } from '../db/database.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function signIn(target: TestServer = server): Promise<string> {
  const answer = await target.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({
      Username: server.account.username,
      Password: server.account.password,
    }),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

/** The statuses a token gets from the token check and from an API read. */
async function statusesOf(token: string, target: TestServer = server) {
  const headers = { Authorization: `Bearer ${token}` };
  const valid = await target.request('/api/tokenvalid', { auth: 'none', headers });
  const read = await target.request('/api/v2/entities?limit=1', { auth: 'none', headers });
  return [valid.status, read.status];
}

function signOut(token: string, body?: unknown) {
  return server.request('/api/signout', {
    method: 'POST',
    auth: 'none',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('sign-out ends the session on the server', () => {
  test('a signed-out token is 401 at once, the token check included; another token lives on', async () => {
    const kept = await signIn();
    const token = await signIn();
    expect(await statusesOf(token)).toEqual([200, 200]);
    const answer = await signOut(token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: { revokedSessions: 1 } });
    expect(await statusesOf(token)).toEqual([401, 401]);
    expect((await signOut(token)).status).toBe(401);
    expect(await statusesOf(kept)).toEqual([200, 200]);
  });

  test('"everywhere" ends every session of the account', async () => {
    const tokens = [await signIn(), await signIn(), await signIn()];
    const answer = await signOut(tokens[0] ?? '', { everywhere: true });
    expect(answer.status).toBe(200);
    expect(
      (answer.body as { data: { revokedSessions: number } }).data.revokedSessions,
    ).toBeGreaterThanOrEqual(3);
    for (const token of tokens) expect(await statusesOf(token)).toEqual([401, 401]);
    expect((await signOut(await signIn(), { everywhere: 'yes' })).status).toBe(400);
  });

  test.runIf(testMode === 'embedded')(
    'a token signed out on one instance is refused by another on the same database',
    async () => {
      const second = await startTestServer({
        dataDir: server.dataDir,
        ...(server.databaseUrl ? { databaseUrl: server.databaseUrl } : {}),
      });
      try {
        const token = await signIn();
        // The second instance has checked it once, so it would answer from any cache it kept.
        expect(await statusesOf(token, second)).toEqual([200, 200]);
        expect((await signOut(token)).status).toBe(200);
        expect(await statusesOf(token, second)).toEqual([401, 401]);
      } finally {
        await second.close();
      }
    },
  );

  test('a sign-out is an audit event of the reviewer, in the trail of the process that served it', async () => {
    const token = await signIn();
    expect((await signOut(token)).status).toBe(200);
    const { db } = server.gateway
      ? await openDatabase(path.join(server.dataDir, 'gateway'))
      : { db: server.app.services.db };
    try {
      const events = await db
        .selectFrom('audit_events')
        .select(['actor', 'outcome', 'detail'])
        .where('action', '=', 'auth.sign-out')
        .orderBy('seq')
        .execute();
      expect(events.at(-1)).toMatchObject({ actor: server.account.username, outcome: 'success' });
      expect(JSON.parse(events.at(-1)?.detail ?? '{}')).toEqual({
        everywhere: false,
        revokedSessions: 1,
      });
    } finally {
      if (server.gateway) await db.destroy();
    }
  });

  test('account:revoke-sessions signs an account out everywhere', async () => {
    const token = await signIn();
    const env: Record<string, string> = server.gateway
      ? {
          DATA_DIR: path.join(server.dataDir, 'gateway'),
          KYC_UPSTREAM_URL: 'http://127.0.0.1:1',
          KYC_UPSTREAM_API_KEY: 'unused',
        }
      : {
          DATA_DIR: server.dataDir,
          ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
        };
    let stdout = '';
    const code = await runAdmin(['account:revoke-sessions', server.account.username], {
      env: { ...env, LOG_LEVEL: 'silent' },
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/Signed ".*" out of [1-9]\d* session/);
    // A gateway answers API calls from a confirmation up to 30 s old (docs/gateway.md); its token
    // check reads the revocation every time.
    const [valid, read] = await statusesOf(token);
    expect(valid).toBe(401);
    if (!server.gateway) expect(read).toBe(401);
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { tokenResponseSchema } from '../../contract/auth.ts';
import { entityListResponseSchema, legalEntityResponseSchema } from '../../contract/entities.ts';
import { createApp, type App } from '../app.ts';
import { createAccount } from '../auth/accounts.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { loadConfig } from '../env.ts';
import { loggerOptionsOf } from '../http/logging.ts';
import { randomPdfBytes } from '../testing/document-files.ts';

let app: App;
let baseUrl: string;
let dataDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-log-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
  app = await createApp(
    { ...config, staticDir: undefined },
    { logger: { level: 'trace', destination: { write: (line) => logLines.push(line) } } },
  );
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('a real server logs requests but never the password, token, API key or file contents', async () => {
  const account = await createAccount(app.services.db, 'log-reviewer');
  const signIn = await fetch(`${baseUrl}/api/gettoken`, {
    method: 'POST',
    body: new URLSearchParams({ Username: account.username, Password: account.password }),
  });
  expect(signIn.status).toBe(200);
  const { token } = tokenResponseSchema.parse(await signIn.json());

  const wrongPassword = `${account.password}-wrong`;
  const failedSignIn = await fetch(`${baseUrl}/api/gettoken`, {
    method: 'POST',
    body: new URLSearchParams({ Username: account.username, Password: wrongPassword }),
  });
  expect(failedSignIn.status).toBe(401);

  const withToken = await fetch(`${baseUrl}/api/v2/entities`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  entityListResponseSchema.parse(await withToken.json());
  expect(
    (await fetch(`${baseUrl}/api/tokenvalid`, { headers: { Authorization: `Bearer ${token}` } }))
      .status,
  ).toBe(200);

  const fileBase64 = randomPdfBytes(6000).toString('base64');
  const created = await fetch(`${baseUrl}/api/v2/entities/legal-entities`, {
    method: 'POST',
    headers: { 'X-API-Key': account.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      legalEntityPayload({
        supportingDocuments: [
          {
            fileName: 'statement.bin',
            type: 'Bank Statement',
            mimeType: 'application/octet-stream',
            file: fileBase64,
          },
        ],
      }),
    ),
  });
  expect(created.status).toBe(201);
  legalEntityResponseSchema.parse(await created.json());

  // Malformed JSON whose text holds secrets: the parser's error message quotes the input.
  const malformed = await fetch(`${baseUrl}/api/v2/entities/legal-entities`, {
    method: 'POST',
    headers: { 'X-API-Key': account.apiKey, 'Content-Type': 'application/json' },
    body: `{"password":"${account.password}", "file": "${fileBase64.slice(0, 200)}" oops`,
  });
  expect(malformed.status).toBe(400);
  const wrongKey = await fetch(`${baseUrl}/api/v2/entities`, {
    headers: { 'X-API-Key': `${account.apiKey}x` },
  });
  expect(wrongKey.status).toBe(401);

  const log = logLines.join('');
  expect(log).toContain('incoming request');
  expect(log).toContain('/api/v2/entities/legal-entities');
  for (const [what, secret] of [
    ['password', account.password],
    ['wrong password', wrongPassword],
    ['token', token],
    ['token signature', token.split('.')[2] ?? token],
    ['API key', account.apiKey],
    ['file', fileBase64],
    ['part of the file', fileBase64.slice(100, 160)],
  ] as const) {
    expect(log.includes(secret), what).toBe(false);
  }
});

test('credentials sent in the query string are refused and logged with their values redacted', async () => {
  const account = await createAccount(app.services.db, 'query-reviewer');
  const secret = (name: string) => `${name}-${crypto.randomBytes(12).toString('hex')}`;
  const sent: string[] = [];
  for (const [pathname, parameter] of [
    ['/api/v2/entities', 'access_token'],
    ['/api/v2/entities', 'token'],
    ['/api/v2/entities', 'apiKey'],
    ['/api/v2/entities', 'api_key'],
    ['/api/tokenvalid', 'access_token'],
    ['/api/gettoken', 'password'],
    ['/api/v2/no-such-path', 'Password'],
  ] as const) {
    const value = secret(parameter);
    sent.push(value);
    const response = await fetch(`${baseUrl}${pathname}?limit=5&${parameter}=${value}`, {
      ...(pathname === '/api/gettoken'
        ? { method: 'POST', body: new URLSearchParams({ Username: account.username }) }
        : {}),
    });
    expect(response.status, `${pathname}?${parameter}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${pathname}?${parameter}`).toBeLessThan(500);
  }
  // A bare value with no name is a credential pasted into the URL as well.
  const bare = secret('bare');
  sent.push(bare);
  expect((await fetch(`${baseUrl}/api/v2/entities?${bare}`)).status).toBe(401);

  const log = logLines.join('');
  expect(log).toContain('/api/v2/entities?limit=[redacted]&access_token=[redacted]');
  expect(log).toContain('/api/gettoken?limit=[redacted]&password=[redacted]');
  for (const value of sent) expect(log.includes(value), value).toBe(false);
});

test('redaction also covers credentials handed to the logger by mistake', async () => {
  const lines: string[] = [];
  const logOnly = Fastify({
    logger: loggerOptionsOf('info', { write: (line) => lines.push(line) }),
  });
  logOnly.log.info(
    {
      req: {
        headers: {
          authorization: 'Bearer header-token',
          'x-api-key': 'header-key',
          cookie: 'sid=cookie',
        },
      },
      body: { Username: 'alice', Password: 'body-password' },
      account: { password: 'nested-password', apiKey: 'nested-key', token: 'nested-token' },
      document: { fileName: 'a.pdf', file: 'bmVzdGVkLWZpbGU=' },
      supportingDocuments: [{ file: 'bGlzdC1maWxl' }],
    },
    'careless log call',
  );
  await logOnly.close();
  const log = lines.join('');
  expect(log).toContain('careless log call');
  expect(log).toContain('a.pdf');
  expect(log).toContain('[redacted]');
  for (const secret of [
    'header-token',
    'header-key',
    'sid=cookie',
    'body-password',
    'nested-password',
    'nested-key',
    'nested-token',
    'bmVzdGVkLWZpbGU=',
    'bGlzdC1maWxl',
  ]) {
    expect(log.includes(secret), secret).toBe(false);
  }
});

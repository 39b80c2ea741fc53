import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { tokenResponseSchema } from '../../contract/auth.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { hashApiKey, verifyPassword } from '../auth/secrets.ts';
import { openDatabase } from '../db/database.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, startTestServer } from '../testing/harness.ts';
import { runAdmin } from './run.ts';

const createdSchema = z.strictObject({
  username: z.string(),
  role: z.enum(['reviewer', 'auditor']),
  password: z.string().min(20),
  apiKey: z.string().startsWith('kyc_'),
});
const listSchema = z.strictObject({
  accounts: z.array(
    z.strictObject({
      username: z.string(),
      displayName: z.string(),
      role: z.enum(['reviewer', 'auditor']),
      disabled: z.boolean(),
      createdAt: z.iso.datetime(),
    }),
  ),
});

let dataDir: string;
/** The PostgreSQL database when that is the engine under test (the CLI then gets DATABASE_URL). */
let databaseUrl: string | undefined;
let databaseEnv: Record<string, string>;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-admin-'));
  databaseUrl = await newTestDatabaseUrl();
  databaseEnv = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
  await dropTestDatabaseUrl(databaseUrl);
});

/** Runs the CLI's logic in-process, capturing what it prints. */
async function admin(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, {
    env: { DATA_DIR: dataDir, ...databaseEnv },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

async function adminJson(...argv: string[]): Promise<unknown> {
  const result = await admin(...argv, '--json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout);
}

async function storedAccount(username: string) {
  const { db } = await openDatabase(dataDir, databaseUrl);
  try {
    const row = await accountsRepository(db).findByUsername(username);
    if (!row) throw new Error(`no stored account ${username}`);
    return row;
  } finally {
    await db.destroy();
  }
}

describe('admin commands', () => {
  test('account:create stores only hashes of the password and API key it prints', async () => {
    const created = createdSchema.parse(
      await adminJson('account:create', 'alice', '--name', 'Alice Doe'),
    );
    expect(created.username).toBe('alice');

    const row = await storedAccount('alice');
    expect(row.display_name).toBe('Alice Doe');
    expect(row.password_hash).not.toContain(created.password);
    expect(await verifyPassword(created.password, row.password_hash)).toBe(true);
    expect(row.api_key_hash).toBe(hashApiKey(created.apiKey));
  });

  test('account:list shows every account with its state', async () => {
    expect(listSchema.parse(await adminJson('account:list'))).toEqual({ accounts: [] });
    await adminJson('account:create', 'bob');
    await adminJson('account:create', 'alice', '--name', 'Alice Doe');
    await adminJson('account:disable', 'bob');

    const { accounts } = listSchema.parse(await adminJson('account:list'));
    expect(
      accounts.map(({ username, displayName, disabled }) => [username, displayName, disabled]),
    ).toEqual([
      ['alice', 'Alice Doe', false],
      ['bob', 'bob', true],
    ]);
  });

  test('account:reset-password and api-key:reset replace the stored secrets', async () => {
    const created = createdSchema.parse(await adminJson('account:create', 'carol'));

    const reset = z
      .strictObject({ username: z.literal('carol'), password: z.string().min(20) })
      .parse(await adminJson('account:reset-password', 'CAROL'));
    expect(reset.password).not.toBe(created.password);
    const afterPassword = await storedAccount('carol');
    expect(await verifyPassword(reset.password, afterPassword.password_hash)).toBe(true);
    expect(await verifyPassword(created.password, afterPassword.password_hash)).toBe(false);

    const rekeyed = z
      .strictObject({ username: z.literal('carol'), apiKey: z.string().startsWith('kyc_') })
      .parse(await adminJson('api-key:reset', 'carol'));
    expect(rekeyed.apiKey).not.toBe(created.apiKey);
    expect((await storedAccount('carol')).api_key_hash).toBe(hashApiKey(rekeyed.apiKey));
  });

  test('account:disable answers with the account and its new state', async () => {
    await adminJson('account:create', 'dave');
    expect(await adminJson('account:disable', 'dave')).toEqual({
      username: 'dave',
      disabled: true,
    });
    expect((await storedAccount('dave')).disabled).toBe(1);
  });

  test('without --json the secrets are printed as readable lines', async () => {
    const result = await admin('account:create', 'erin');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Password: \S{20}$/m);
    expect(result.stdout).toMatch(/^API key: +kyc_\S+$/m);
    // Which database it worked on, never the password a DATABASE_URL may carry.
    expect(result.stdout).toContain(
      databaseUrl ? `PostgreSQL database ${new URL(databaseUrl).pathname.slice(1)}` : dataDir,
    );
  });

  test.each([
    [['account:create', 'alice'], 'An account with the username "alice" already exists.'],
    [['account:create', 'ALICE'], 'An account with the username "ALICE" already exists.'],
    [['account:reset-password', 'nobody'], 'There is no account with the username "nobody".'],
    [['api-key:reset', 'nobody'], 'There is no account with the username "nobody".'],
    [['account:disable', 'nobody'], 'There is no account with the username "nobody".'],
    [['account:frobnicate'], 'Unknown command "account:frobnicate".'],
    [['account:create'], 'account:create needs a username'],
    [['api-key:reset'], 'api-key:reset needs a username'],
    [['account:create', 'has space'], 'is not a valid username'],
    [['account:list', 'extra'], 'account:list does not take "extra"'],
    [
      ['account:disable', 'alice', '--name', 'X'],
      '--name applies only to account:create and client-config:set.',
    ],
    [['account:list', '--verbose'], "Unknown option '--verbose'."],
  ])('%j fails with one sentence on stderr and exit code 1', async (argv, message) => {
    await adminJson('account:create', 'alice');
    const result = await admin(...argv, '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a bad environment setting is reported by name, without a stack trace', async () => {
    let stderr = '';
    const code = await runAdmin(['account:list'], {
      env: { DATA_DIR: dataDir, ...databaseEnv, TOKEN_TTL_SECONDS: 'soon' },
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(code).toBe(1);
    expect(stderr).toContain('TOKEN_TTL_SECONDS');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  test('--help lists every command', async () => {
    const result = await admin('--help');
    expect(result.code).toBe(0);
    for (const command of [
      'account:create <username> [--name "Display Name"]',
      'account:reset-password <username>',
      'api-key:reset <username>',
      'account:disable <username>',
      'account:list',
    ]) {
      expect(result.stdout).toContain(command);
    }
  });
});

describe('the real CLI process', () => {
  test('creates an account that can then sign in to a server on the same DATA_DIR', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const run = (...argv: string[]) =>
      promisify(execFile)(tsx, ['server/admin/cli.ts', ...argv], {
        env: { ...process.env, DATA_DIR: dataDir, ...databaseEnv },
      });

    const { stdout } = await run('account:create', 'frank', '--name', 'Frank Doe', '--json');
    const created = createdSchema.parse(JSON.parse(stdout));

    const failure = await run('account:disable', 'nobody').then(
      () => null,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failure).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'There is no account with the username "nobody".\n',
    });

    const server = await startTestServer({ dataDir, databaseUrl });
    try {
      const response = await server.request('/api/gettoken', {
        method: 'POST',
        auth: 'none',
        body: new URLSearchParams({ Username: 'frank', Password: created.password }),
      });
      expect(response.status).toBe(200);
      tokenResponseSchema.parse(response.body);
      expect((await server.request('/api/v2/no-such-path', { auth: 'none' })).status).toBe(401);
      const withKey = await server.request('/api/v2/no-such-path', {
        auth: 'none',
        headers: { 'X-API-Key': created.apiKey },
      });
      expect(withKey.status).toBe(404);
    } finally {
      await server.close();
    }
    // Two tsx start-ups on a busy machine can take several seconds each.
  }, 60_000);
});

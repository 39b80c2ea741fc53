import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { KycServer } from './fixtures.ts';

/** A Bearer token for the demo account, through the real sign-in endpoint. */
export async function demoToken(request: APIRequestContext, kyc: KycServer): Promise<string> {
  const response = await request.post(`${kyc.baseUrl}/api/gettoken`, {
    form: { Username: kyc.demo.username, Password: kyc.demo.password },
  });
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** GET an /api/v2 path as the demo account and return `data` of the envelope. */
export async function apiData<T>(
  request: APIRequestContext,
  kyc: KycServer,
  path: string,
): Promise<T> {
  const token = await demoToken(request, kyc);
  const response = await request.get(`${kyc.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok()) throw new Error(`${path} answered ${response.status()}`);
  return ((await response.json()) as { data: T }).data;
}

/** A second reviewer account, made as an operator makes one: with the admin CLI. */
export function createAccount(
  kyc: KycServer,
  username: string,
): { username: string; password: string } {
  const output = execFileSync(
    path.resolve('node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'account:create', username, '--json'],
    { env: { ...process.env, DATA_DIR: kyc.dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
    username: string;
    password: string;
  };
}

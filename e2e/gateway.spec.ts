import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, startServerProcess, test } from './fixtures.ts';

/** Every file of the built console, for the check that none carries the key. */
function consoleFiles(directory = 'dist'): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    return entry.isDirectory() ? consoleFiles(file) : [file];
  });
}

let gateway: { child: ChildProcess; baseUrl: string; dataDir: string } | undefined;
let apiKey = '';

// The worker's embedded server (with demo data) is the "real service"; a gateway stands in front of it.
test.beforeAll(async ({ kyc }) => {
  const created = execFileSync(
    path.resolve('node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'account:create', 'console-gateway', '--json'],
    { env: { ...process.env, DATA_DIR: kyc.dataDir }, encoding: 'utf8' },
  );
  apiKey = (JSON.parse(created.trim().split('\n').at(-1) ?? '{}') as { apiKey: string }).apiKey;
  expect(apiKey).toMatch(/^kyc_/);
  gateway = await startServerProcess({
    KYC_UPSTREAM_URL: kyc.baseUrl,
    KYC_UPSTREAM_API_KEY: apiKey,
  });
});

test.afterAll(() => {
  gateway?.child.kill('SIGTERM');
  if (gateway) fs.rmSync(gateway.dataDir, { recursive: true, force: true });
});

test('through the gateway the console works unchanged and the browser never sees the API key', async ({
  page,
  kyc,
}) => {
  if (!gateway) throw new Error('gateway not started');
  const seen: string[] = [];
  page.on('request', (request) => {
    // As for responses below: a request still in flight when the test ends cannot be read.
    void request
      .allHeaders()
      .then((headers) => seen.push(`${request.url()} ${JSON.stringify(headers)}`))
      .catch(() => undefined);
  });
  page.on('response', (response) => {
    void response
      .allHeaders()
      .then((headers) => seen.push(`${response.url()} ${JSON.stringify(headers)}`))
      .catch(() => undefined);
  });

  await page.goto(`${gateway.baseUrl}/login?next=/entities`);
  await page.getByLabel('Username').fill(kyc.demo.username);
  await page.getByLabel('Password', { exact: true }).fill(kyc.demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/entities/);
  const table = page.getByRole('table', { name: 'Entities' });
  await expect(table.getByRole('row')).toHaveCount(11);

  await page.goto(`${gateway.baseUrl}/search?companyName=international`);
  const results = page.getByRole('table', { name: 'Search results' }).getByRole('link');
  await expect(results.first()).toBeVisible();
  await results.first().click();
  await expect(page.getByRole('heading', { name: 'Corporate information' })).toBeVisible();

  const view = page.getByRole('button', { name: /^View / }).first();
  await view.click();
  await expect(
    page.getByRole('dialog').locator('iframe, img[data-rotation]').first(),
  ).toBeVisible();

  expect(seen.length).toBeGreaterThan(10);
  expect(seen.filter((line) => line.includes(apiKey))).toEqual([]);
  const bodies = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => entry.name),
  );
  expect(bodies.some((name) => name.includes('/api/v2/'))).toBe(true);

  for (const file of consoleFiles()) {
    expect(fs.readFileSync(file, 'utf8').includes(apiKey), file).toBe(false);
  }
});

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { startReplayUpstream, type ReplayUpstream } from '../server/testing/replay-upstream.ts';
import { expect, startServerProcess, test } from './fixtures.ts';

let replay: ReplayUpstream | undefined;
let gateway: { child: ChildProcess; baseUrl: string; dataDir: string } | undefined;

// A gateway in front of a replay of the real service's published samples (vendor.md).
test.beforeAll(async () => {
  replay = await startReplayUpstream();
  gateway = await startServerProcess({
    KYC_UPSTREAM_URL: replay.url,
    KYC_UPSTREAM_API_KEY: replay.apiKey,
    KYC_UPSTREAM_API_KEY_HEADER: replay.apiKeyHeader,
  });
});

test.afterAll(async () => {
  gateway?.child.kill('SIGTERM');
  if (gateway) fs.rmSync(gateway.dataDir, { recursive: true, force: true });
  await replay?.close();
});

test('a reviewer reads what the real service sends and e-mails the company’s contact for an update', async ({
  page,
  axe,
}) => {
  // Four axe passes through a gateway, and an e-mail sent: about 45 s alone on the machine.
  test.slow();
  if (!gateway || !replay) throw new Error('the gateway did not start');
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto(`${gateway.baseUrl}/login?next=/entities`);
  await page.getByLabel('Username').fill(replay.username);
  await page.getByLabel('Password', { exact: true }).fill(replay.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/entities/);

  // The default tab lists both kinds, the person with the list-style kycMetaData.
  const table = page.getByRole('table', { name: 'Entities' });
  await expect(table.getByRole('link', { name: 'New Company' })).toBeVisible();
  await expect(table.getByRole('link', { name: /John/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await axe();

  await table.getByRole('link', { name: /John/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /John/ })).toBeVisible();
  // A status outside the seven known ones, shown as it came; the identity checks the record holds.
  await expect(page.getByText('Approved').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Identity checks' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Company' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await axe();

  await page.goBack();
  await table.getByRole('link', { name: 'New Company' }).click();
  await expect(page.getByRole('heading', { name: 'Corporate information' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page
    .getByRole('button', { name: /^View / })
    .first()
    .click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.locator('iframe, img[data-rotation]').first()).toBeVisible();
  await expect(viewer.getByRole('alert')).toHaveCount(0);
  await axe();
  await viewer.getByRole('button', { name: 'Close viewer' }).click();
  await expect(viewer).toBeHidden();

  // The real service names no people on a company: the reviewer finds the contact by name.
  await page.getByLabel('Find a person by last name').fill('Doe');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('button', { name: /^Choose John .*Doe as a recipient$/ }).click();
  await page.getByRole('button', { name: 'Request update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a client update' });
  await expect(dialog.getByRole('combobox', { name: 'Recipient' })).toHaveValue(/John/);
  await axe();
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
  const history = page.getByRole('table', { name: 'Update requests' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByRole('row').nth(1)).toContainText('Sent');

  expect(pageErrors).toEqual([]);
});

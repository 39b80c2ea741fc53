import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { apiData } from './api.ts';
import { expect, signIn, test, type KycServer } from './fixtures.ts';

/** An auditor, made as an operator makes one: with the admin CLI. */
function createAuditor(kyc: KycServer, username: string): { username: string; password: string } {
  const output = execFileSync(
    path.resolve('node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'account:create', username, '--role', 'auditor', '--json'],
    { env: { ...process.env, DATA_DIR: kyc.dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
    username: string;
    password: string;
  };
}

test('a reviewer sees who worked on an entity; an auditor filters the whole log and exports it', async ({
  page,
  browser,
  kyc,
  request,
  axe,
}) => {
  // Two browsers, an export and two axe passes.
  test.slow();
  const [entity] = await apiData<{ id: string }[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=1',
  );
  if (!entity) throw new Error('the demo data has no legal entity');

  // The reviewer opens the entity: its views are folded, and "Show views" names them.
  await signIn(page, kyc, `/entities/${entity.id}`);
  const activity = page.getByRole('region', { name: 'Activity' });
  const showViews = activity.getByRole('button', { name: /^Show views \(\d+\+?\)$/ });
  await expect(showViews).toHaveAttribute('aria-expanded', 'false');
  await showViews.click();
  const views = activity.getByRole('list', { name: 'Views and listings' });
  await expect(views.getByText('Viewed').first()).toBeVisible();
  await expect(views.getByText(`by ${kyc.demo.username}`).first()).toBeVisible();
  await axe();

  // Reviewers have no link to the global log, and the page says why.
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await page.goto('/audit');
  await expect(
    page.getByRole('heading', { name: 'Only auditors can see the audit log' }),
  ).toBeVisible();

  // An auditor, in a browser of their own.
  const auditor = createAuditor(kyc, 'audrey');
  const context = await browser.newContext({ baseURL: kyc.baseUrl });
  const auditorPage = await context.newPage();
  await signIn(auditorPage, { ...kyc, demo: auditor }, '/entities');
  await auditorPage.getByRole('link', { name: 'Audit log' }).click();
  await expect(auditorPage.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

  await auditorPage.getByLabel('Actor').fill(kyc.demo.username);
  await auditorPage.getByLabel('Entity ID').fill(entity.id);
  await auditorPage.getByRole('button', { name: 'Apply filters' }).click();
  await expect(auditorPage).toHaveURL(/actor=/);
  const events = auditorPage.getByRole('table');
  await expect(events.getByRole('row').nth(1)).toContainText(kyc.demo.username);
  await expect(events.getByText('entity.view').first()).toBeVisible();
  const rows = await events.getByRole('row').count();
  expect(rows).toBeGreaterThan(1);

  const [download] = await Promise.all([
    auditorPage.waitForEvent('download'),
    auditorPage.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  const lines = csv.split('\r\n').filter((line) => line !== '');
  expect(lines[0]).toBe(
    'id,at,actor,action,entityId,documentId,outcome,requestId,clientAddress,detail',
  );
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => line.includes(`,${kyc.demo.username},`))).toBe(true);

  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page: auditorPage }).analyze();
  expect(
    results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
  ).toEqual([]);
  await context.close();
});

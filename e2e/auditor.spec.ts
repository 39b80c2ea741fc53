import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiData, demoToken } from './api.ts';
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

interface EntityWithDocuments {
  id: string;
  supportingDocuments?: { documentId: string; fileName: string }[] | null;
}

/** A demo company with a document, after a reviewer rejected that document and left a note. */
async function workedOnEntity(request: APIRequestContext, kyc: KycServer) {
  const entities = await apiData<EntityWithDocuments[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50&supportingDocuments=true',
  );
  const entity = entities.find((candidate) => (candidate.supportingDocuments ?? []).length > 0);
  const document = entity?.supportingDocuments?.[0];
  if (!entity || !document) throw new Error('the demo data has no company with a document');
  const headers = { Authorization: `Bearer ${await demoToken(request, kyc)}` };
  const rejected = await request.patch(`${kyc.baseUrl}/api/v2/documents/${document.documentId}`, {
    headers,
    data: { documentApproved: false, reason: 'Scan unreadable.' },
  });
  expect(rejected.status()).toBe(200);
  const note = await request.post(`${kyc.baseUrl}/api/v2/entities/${entity.id}/notes`, {
    headers,
    data: { text: 'Asked the client for a clearer scan.' },
  });
  expect(note.status()).toBe(201);
  return { entityId: entity.id, fileName: document.fileName };
}

/** Every action the entity page can offer, by the name a person finds it by. */
function actionsOn(page: Page, fileName: string) {
  return [
    page.getByRole('button', { name: 'Record outcome' }),
    page.getByRole('button', { name: `Approve ${fileName}` }),
    page.getByRole('button', { name: `Reject ${fileName}` }),
    page.getByRole('textbox', { name: 'Add a note' }),
    page.getByRole('button', { name: 'Add note' }),
    page.getByRole('button', { name: 'Request update' }),
  ];
}

test('an auditor sees no action buttons: not on an entity page, the reviews page or the navigation', async ({
  page,
  browser,
  kyc,
  request,
}) => {
  // Two browsers, an admin command and an accessibility scan: more than one page's budget.
  test.setTimeout(180_000);
  const { entityId, fileName } = await workedOnEntity(request, kyc);

  // A reviewer is offered every action (the same page, so the auditor's absences mean something).
  await signIn(page, kyc, `/entities/${entityId}`);
  await expect(page.getByRole('region', { name: 'Activity' })).toBeVisible();
  for (const action of actionsOn(page, fileName)) await expect(action.first()).toBeVisible();
  const reviewerNav = page.getByRole('navigation', { name: 'Main' });
  await expect(reviewerNav.getByRole('link', { name: 'Onboard legal entity' })).toBeVisible();

  const auditor = createAuditor(kyc, 'audra');
  const context = await browser.newContext({ baseURL: kyc.baseUrl });
  const auditorPage = await context.newPage();
  await signIn(auditorPage, { ...kyc, demo: auditor }, `/entities/${entityId}`);

  // The entity page: everything readable, nothing to act with.
  const activity = auditorPage.getByRole('region', { name: 'Activity' });
  await expect(
    activity.getByText(`Rejected document ${fileName}: Scan unreadable.`).first(),
  ).toBeVisible();
  await expect(activity.getByText('Added a note').first()).toBeVisible();
  await expect(auditorPage.getByRole('region', { name: 'Notes' })).toContainText(
    'Asked the client for a clearer scan.',
  );
  await expect(auditorPage.getByText(fileName).first()).toBeVisible();
  await expect(auditorPage.getByRole('heading', { name: 'Client updates' })).toBeVisible();
  for (const action of actionsOn(auditorPage, fileName)) await expect(action).toHaveCount(0);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page: auditorPage }).analyze();
  expect(
    results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
  ).toEqual([]);

  // The navigation: the audit log, no onboarding.
  const nav = auditorPage.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Audit log' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Onboard legal entity' })).toHaveCount(0);

  // The reviews page: the queue to read, no action on it.
  await nav.getByRole('link', { name: 'Reviews' }).click();
  await expect(auditorPage.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await expect(auditorPage.getByRole('table').first()).toBeVisible();
  for (const name of [/record outcome/i, /take next/i, /assign/i, /confirm/i, /onboard/i]) {
    await expect(auditorPage.getByRole('button', { name })).toHaveCount(0);
    await expect(auditorPage.getByRole('link', { name })).toHaveCount(0);
  }

  // Onboarding by its address: a clear state and a way on, no form.
  await auditorPage.goto('/legal-entities/new');
  await expect(
    auditorPage.getByRole('heading', { level: 1, name: 'Auditors cannot create entities' }),
  ).toBeVisible();
  await expect(auditorPage.getByRole('heading', { name: 'Onboard a legal entity' })).toHaveCount(0);
  await auditorPage.getByRole('link', { name: 'Back to entities' }).click();
  await expect(auditorPage).toHaveURL(/\/entities$/);
  await context.close();
});

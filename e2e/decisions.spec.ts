import { apiData, createAccount } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';
import { dismissNotification, recordOutcome } from './review-actions.ts';

interface ListedLegalEntity {
  id: string;
  kycMetaData: { riskLevel: string; kycStatus: string };
  supportingDocuments?: { documentId: string; fileName: string; documentApproved: boolean }[];
}

test('a reviewer records an outcome, leaves a note and approves a document; a High-risk acceptance needs a second reviewer', async ({
  page,
  browser,
  kyc,
  request,
  axe,
}) => {
  // Two reviewers, two browsers and a dozen steps: a long journey on a shared two-core machine.
  test.slow();
  const entities = await apiData<ListedLegalEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=100&supportingDocuments=true',
  );
  const ordinary = entities.find(
    (entity) =>
      entity.kycMetaData.riskLevel !== 'High' &&
      entity.supportingDocuments?.some((document) => !document.documentApproved),
  );
  const highRisk = entities.find(
    (entity) => entity.kycMetaData.riskLevel === 'High' && entity.id !== ordinary?.id,
  );
  if (!ordinary || !highRisk) throw new Error('demo data lacks the entities this journey needs');
  const document = ordinary.supportingDocuments?.find((candidate) => !candidate.documentApproved);
  if (!document) throw new Error('no undecided document');

  await signIn(page, kyc, `/entities/${ordinary.id}`);
  const decisionPanel = page.getByRole('region', { name: 'Review decision' });
  await expect(decisionPanel).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notes' })).toBeVisible();
  await axe();

  // 1. The outcome becomes the entity's status and moves its next review into the future.
  await recordOutcome(page, 'Review', axe);
  await dismissNotification(page, 'Outcome recorded');
  const afterOutcome = await apiData<{ kycMetaData: { kycStatus: string; nextKYCReview: string } }>(
    request,
    kyc,
    `/api/v2/entities/legal-entities/${ordinary.id}`,
  );
  expect(afterOutcome.kycMetaData.kycStatus).toBe('Review');
  expect(afterOutcome.kycMetaData.nextKYCReview > new Date().toISOString().slice(0, 10)).toBe(true);

  // 2. A note, sent with Ctrl+Enter.
  const noteBox = page.getByRole('textbox', { name: 'Add a note' });
  await noteBox.fill('Accounts for 2025 received; next check on the UBO register.');
  await noteBox.press('Control+Enter');
  const notes = page.getByRole('list', { name: 'Notes, newest first' });
  await expect(notes.getByText('Accounts for 2025 received')).toBeVisible();
  await expect(noteBox).toHaveValue('');
  await axe();

  // 3. A document approved from the list.
  await page.getByRole('button', { name: `Approve ${document.fileName}` }).click();
  const row = page.getByRole('row', { name: new RegExp(document.fileName) });
  await expect(row.getByText(`Approved by ${kyc.demo.username}`)).toBeVisible();

  // 4. Four-eyes: the demo reviewer's acceptance of a High-risk entity waits for someone else.
  await page.goto(`/entities/${highRisk.id}`);
  await recordOutcome(page, 'Accepted');
  await dismissNotification(page, 'Waiting for a second reviewer');
  // The decision panel says so (the Activity's line about the held outcome says it too).
  const held = page.getByRole('group', { name: 'Decision waiting for a second reviewer' });
  await expect(held.getByText('Waiting for a second reviewer', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm' })).toBeHidden();
  await axe();

  const second = createAccount(kyc, `second-${Date.now().toString(36)}`);
  const context = await browser.newContext();
  const secondPage = await context.newPage();
  await secondPage.goto(
    `${kyc.baseUrl}/login?next=${encodeURIComponent(`/entities/${highRisk.id}`)}`,
  );
  await secondPage.getByLabel('Username').fill(second.username);
  await secondPage.getByLabel('Password', { exact: true }).fill(second.password);
  await secondPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(secondPage.getByText('A decision needs your confirmation')).toBeVisible();
  await secondPage.getByRole('button', { name: 'Confirm' }).click();
  await expect(secondPage.getByText('Decision confirmed')).toBeVisible();
  await expect(secondPage.getByRole('button', { name: 'Record outcome' })).toBeVisible();
  await context.close();

  const confirmed = await apiData<{ kycMetaData: { kycStatus: string } }>(
    request,
    kyc,
    `/api/v2/entities/legal-entities/${highRisk.id}`,
  );
  expect(confirmed.kycMetaData.kycStatus).toBe('Accepted');
});

import type { Locator } from '@playwright/test';
import { apiData, createAccount } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';
import { dismissNotification, recordOutcome } from './review-actions.ts';

interface ListedLegalEntity {
  id: string;
  kycMetaData: { riskLevel: string; kycStatus: string };
}

/** The number in the navigation's "Waiting for me (N)" link; 0 when it shows none. */
async function waitingCount(nav: Locator): Promise<number> {
  const name = await nav.getByRole('link', { name: /^Waiting for me/ }).getAttribute('aria-label');
  const count = /\((\d+)\)$/.exec(name ?? '')?.[1];
  return count ? Number(count) : 0;
}

test('a held decision recorded by one reviewer reaches the other’s "Waiting for me" and is confirmed there', async ({
  page,
  browser,
  kyc,
  request,
  axe,
}) => {
  // Two reviewers in two browsers: a long journey on a shared two-core machine.
  test.slow();
  const entities = await apiData<ListedLegalEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=100',
  );
  const highRisk = entities.find(
    (entity) =>
      entity.kycMetaData.riskLevel === 'High' && entity.kycMetaData.kycStatus !== 'Accepted',
  );
  if (!highRisk) throw new Error('demo data lacks a High-risk entity that is not accepted');

  // Reviewer A (demo), in a browser of their own, accepts a High-risk entity: four-eyes holds it.
  const contextA = await browser.newContext({ baseURL: kyc.baseUrl });
  const pageA = await contextA.newPage();
  await signIn(pageA, kyc, `/entities/${highRisk.id}`);
  await recordOutcome(pageA, 'Accepted');
  await dismissNotification(pageA, 'Waiting for a second reviewer');
  // A's own held decision is not A's to confirm: not in A's list.
  await pageA
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Waiting for me/ })
    .click();
  await expect(pageA.getByRole('heading', { name: 'Waiting for me', level: 1 })).toBeVisible();
  await expect(pageA.getByText('Nothing waits for your confirmation')).toBeVisible();
  await contextA.close();

  // Reviewer B signs in and finds it from the navigation's count.
  const second = createAccount(kyc, `second-${Date.now().toString(36)}`);
  await page.goto('/login?next=%2Fentities');
  await page.getByLabel('Username').fill(second.username);
  await page.getByLabel('Password', { exact: true }).fill(second.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const countLink = nav.getByRole('link', { name: /^Waiting for me \(\d+\)$/ });
  await expect(countLink).toBeVisible();
  const before = await waitingCount(nav);
  expect(before).toBeGreaterThanOrEqual(1);
  await countLink.click();
  await expect(page).toHaveURL(/\/waiting-for-me$/);

  const held = page
    .getByRole('listitem')
    .filter({ has: page.locator(`a[href="/entities/${highRisk.id}"]`) });
  await expect(held).toBeVisible();
  await expect(held).toContainText(`recorded by ${kyc.demo.username}`);
  await expect(held).toContainText('Review outcome');
  await axe();
  await held.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Decision confirmed')).toBeVisible();
  await expect(held).toHaveCount(0);
  await expect
    .poll(() => waitingCount(nav), { message: 'the count follows the confirmation' })
    .toBe(before - 1);

  const confirmed = await apiData<{ kycMetaData: { kycStatus: string } }>(
    request,
    kyc,
    `/api/v2/entities/legal-entities/${highRisk.id}`,
  );
  expect(confirmed.kycMetaData.kycStatus).toBe('Accepted');
});

import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Closes the toast that confirms a decision, so that axe sees the page and not an animation. */
export async function dismissNotification(page: Page, title: string) {
  const toast = page.getByRole('alert').filter({ hasText: title });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast).toBeHidden();
}

export async function recordOutcome(page: Page, status: string, axe?: () => Promise<void>) {
  await page.getByRole('button', { name: 'Record outcome' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record review outcome' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: status, exact: true }).click();
  await dialog.getByLabel('Source').fill('Companies House');
  await dialog.getByLabel('Business statement').fill('Annual review: filings up to date.');
  if (axe) await axe();
  await dialog.getByRole('button', { name: 'Record outcome' }).click();
  await expect(dialog).toBeHidden();
}

import { expect, signIn, test } from './fixtures.ts';
import { dismissNotification } from './review-actions.ts';

/** `YYYY-MM-DD` (UTC) `days` from today, and how the console shows it ("5 Dec 2027"). */
function daysFromToday(days: number): { iso: string; shown: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const shown = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
  return { iso: date.toISOString().slice(0, 10), shown };
}

test('a person is reviewed from the queue', async ({ page, kyc, axe }) => {
  // Low risk: an Accepted outcome applies at once under the default FOUR_EYES=high.
  // Everyone's queue: earlier specs on this server may have assigned entities to the demo reviewer.
  await signIn(page, kyc, '/reviews?riskLevel=Low&type=natural-persons&assignee=all');
  const overdueTab = page.getByRole('tab', { name: /^Overdue\s*\d+$/ });
  await expect(overdueTab).toHaveAttribute('aria-selected', 'true');
  const before = Number((await overdueTab.textContent())?.replace(/\D/g, ''));
  // The demo data has Low-risk people overdue; two at least, so that there is a next one.
  expect(before).toBeGreaterThanOrEqual(2);
  const table = page.getByRole('table', { name: /Overdue reviews/ });
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toContainText('Natural person');
  const name = (await firstRow.getByRole('link').textContent()) ?? '';
  const nextName = (await table.getByRole('row').nth(2).getByRole('link').textContent()) ?? '';
  await firstRow.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByText('Natural person', { exact: true })).toBeVisible();
  const queueNav = page.getByRole('navigation', { name: 'Review queue' });
  await expect(queueNav).toContainText(`1 of ${String(before)} overdue`);
  const kycSection = page.getByRole('region', { name: 'KYC' });
  await expect(kycSection.getByText(/Overdue by \d+ days?/)).toBeVisible();

  const nextReview = daysFromToday(400);
  const reason = 'Annual review: passport and address checked against the registry.';
  await page.getByRole('button', { name: 'Record outcome' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record review outcome' });
  await expect(dialog).toBeVisible();
  // Low risk proposes its own interval; the reviewer sets another date.
  await expect(dialog.getByText(/Default for Low risk: \d+ years? from/)).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Outcome' }).click();
  await page.getByRole('option', { name: 'Accepted', exact: true }).click();
  // Not High risk: no four-eyes warning.
  await expect(dialog.getByText('Four-eyes rule')).toHaveCount(0);
  await dialog.getByLabel('Next review date').fill(nextReview.iso);
  await dialog.getByLabel('Reason').fill(reason);
  await axe();
  await dialog.getByRole('button', { name: 'Record outcome' }).click();
  await expect(dialog).toBeHidden();
  await dismissNotification(page, 'Outcome recorded');

  // Applied at once: the status and next review are the person's now, nothing is held.
  await expect(kycSection.getByText(nextReview.shown)).toBeVisible();
  await expect(kycSection.getByText(/Overdue by/)).toHaveCount(0);
  await expect(kycSection.getByText('Accepted', { exact: true })).toBeVisible();
  await expect(page.getByText('Waiting for a second reviewer')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Record outcome' })).toBeEnabled();
  // The Activity shows the review as a decision, not folded among the views.
  const decisions = page.getByRole('list', { name: 'Decisions, changes and requests' });
  await expect(
    decisions.getByText(`Recorded outcome Accepted, next review ${nextReview.shown}: ${reason}`),
  ).toBeVisible();
  await expect(decisions.getByRole('listitem').first()).toContainText(`(${kyc.demo.username})`);
  await axe();

  // The reviewed person left the overdue window; Next still finds the one after it.
  await queueNav.getByRole('link', { name: `Next in queue: ${nextName}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(nextName);
  await expect(queueNav).toContainText(/2 of \d+ overdue|Number 2 overdue/);
  await expect(page.getByRole('region', { name: 'KYC' }).getByText(/Overdue by/)).toBeVisible();

  await queueNav.getByRole('link', { name: 'Back to the queue' }).click();
  await expect(page).toHaveURL(/\/reviews\?riskLevel=Low&type=natural-persons&assignee=all$/);
  await expect(overdueTab).toHaveText(new RegExp(`^Overdue\\s*${String(before - 1)}$`));
  await expect(table.getByRole('link', { name, exact: true })).toHaveCount(0);
});

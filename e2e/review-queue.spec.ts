import { expect, signIn, test } from './fixtures.ts';

test('a reviewer opens the overdue reviews, filters by risk and works through them with Next', async ({
  page,
  kyc,
  axe,
}) => {
  // Two axe passes over a queue page of 25 rows with their checkboxes, then the whole round.
  test.slow();
  // Everyone's queue: earlier specs on this server may have assigned entities to the demo reviewer.
  await signIn(page, kyc, '/reviews?assignee=all');
  await expect(page.getByRole('heading', { name: 'Reviews', level: 1 })).toBeVisible();
  const overdueTab = page.getByRole('tab', { name: /^Overdue\s*\d+$/ });
  await expect(overdueTab).toHaveAttribute('aria-selected', 'true');
  const overdue = Number((await overdueTab.textContent())?.replace(/\D/g, ''));
  // The demo data has dozens overdue.
  expect(overdue).toBeGreaterThan(10);
  const table = page.getByRole('table', { name: /Overdue reviews/ });
  await expect(table.getByRole('row').nth(1)).toContainText(/Overdue by \d+ days?/);
  await axe();

  await page.getByRole('combobox', { name: 'Risk level' }).selectOption('High');
  await expect(page).toHaveURL(/riskLevel=High/);
  const highTab = page.getByRole('tab', { name: /^Overdue\s*\d+$/ });
  await expect(highTab).not.toHaveText(`Overdue${String(overdue)}`);
  const total = Number((await highTab.textContent())?.replace(/\D/g, ''));
  expect(total).toBeGreaterThanOrEqual(3);
  await expect(table.getByRole('row')).toHaveCount(Math.min(total, 25) + 1);
  for (const row of await table.getByRole('row').all()) {
    if ((await row.getByRole('cell').count()) > 0) await expect(row).toContainText('High');
  }

  const names: string[] = [];
  for (let index = 1; index <= 3; index += 1) {
    names.push((await table.getByRole('row').nth(index).getByRole('link').textContent()) ?? '');
  }
  await table.getByRole('row').nth(1).getByRole('link').click();
  const queueNav = page.getByRole('navigation', { name: 'Review queue' });
  await expect(queueNav).toContainText(`1 of ${String(total)} overdue`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(names[0] ?? '');
  await axe();

  for (const [step, name] of [
    [2, names[1]],
    [3, names[2]],
  ] as const) {
    await queueNav.getByRole('link', { name: `Next in queue: ${name ?? ''}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name ?? '');
    await expect(queueNav).toContainText(`${String(step)} of ${String(total)} overdue`);
  }

  await queueNav.getByRole('link', { name: 'Back to the queue' }).click();
  await expect(page).toHaveURL(/\/reviews\?(?=.*\briskLevel=High\b)(?=.*\bassignee=all\b)/);
  await expect(page.getByRole('combobox', { name: 'Risk level' })).toHaveValue('High');
});

import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

test('a reviewer browses the entity index by type, sort, page size and page, with the state in the URL', async ({
  page,
  kyc,
  axe,
}) => {
  await signIn(page, kyc);
  const table = page.getByRole('table', { name: 'Entities' });
  await expect(table.getByRole('row')).toHaveCount(26); // header + 25 rows by default
  await expect(page.getByText(/^1–25 of \d/)).toBeVisible();
  await axe();

  await page.getByRole('combobox', { name: 'Type' }).selectOption('legal-entities');
  await expect(page).toHaveURL(/type=legal-entities/);
  await expect(table.getByRole('row').nth(1)).toContainText('Legal Entity');

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('created:desc');
  await expect(page).toHaveURL(/sort=created/);
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
  await expect(page).toHaveURL(/limit=10/);
  await expect(table.getByRole('row')).toHaveCount(11);

  const firstOnPageOne = await table.getByRole('row').nth(1).getByRole('link').textContent();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByText(/^11–20 of \d/)).toBeVisible();
  await expect(table.getByRole('row').nth(1).getByRole('link')).not.toHaveText(
    firstOnPageOne ?? '',
  );

  // The URL alone restores the view (a shared link, the back button).
  const url = page.url();
  await page.goto('/entities');
  await page.goto(url);
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('legal-entities');
  await expect(table.getByRole('row')).toHaveCount(11);

  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText(/^1–10 of \d/)).toBeVisible();
  await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(firstOnPageOne ?? '');
});

test('a reviewer searches legal entities and opens a result', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const ids = await apiData<string[]>(
    request,
    kyc,
    '/api/v2/entities/legal-entities?companyName=international',
  );
  expect(ids.length).toBeGreaterThan(0);

  await signIn(page, kyc, '/search');
  await page.getByRole('textbox', { name: 'DUNS' }).fill('12ab');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/digits/i).first()).toBeVisible();

  await page.getByRole('textbox', { name: 'DUNS' }).fill('');
  await page.getByRole('textbox', { name: 'Company name' }).fill('international');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/companyName=international/);
  await expect(page.getByText(new RegExp(`${ids.length} match`))).toBeVisible();
  await axe();

  const results = page.getByRole('table', { name: 'Search results' }).getByRole('link');
  await expect(results).toHaveCount(Math.min(ids.length, 25));
  await results.first().click();
  await expect(page).toHaveURL(/\/entities\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/international/i);
});

test('with no session notice, nothing of its bar shows at the foot of the page', async ({
  page,
  kyc,
}) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, kyc);
  await expect(page.getByRole('table', { name: 'Entities' })).toBeVisible();
  const bar = await page.locator('footer').boundingBox();
  // Off the screen entirely: a collapsed bar's 1 px border once showed as a line on every page.
  expect(bar?.y).toBeGreaterThanOrEqual(800);
});

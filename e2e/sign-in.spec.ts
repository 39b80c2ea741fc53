import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

test('a reviewer signs in, stays on the page they asked for, and signs out', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const [first] = await apiData<{ id: string }[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=1',
  );
  if (!first) throw new Error('demo data has no legal entity');

  await page.goto(`/entities/${first.id}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await axe();

  await page.getByLabel('Username').fill(kyc.demo.username);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/wrong|invalid|incorrect/i);

  await page.getByLabel('Password', { exact: true }).fill(kyc.demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/entities/${first.id}$`));

  const stored = await page.evaluate(() => ({
    session: Object.keys(sessionStorage).length,
    local: Object.keys(localStorage).filter((key) => localStorage.getItem(key)?.includes('eyJ'))
      .length,
  }));
  expect(stored.session).toBeGreaterThan(0);
  expect(stored.local).toBe(0);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('eyJ');
  await page.goto('/entities');
  await expect(page).toHaveURL(/\/login\?next=/);
});

test('the shell navigates between the main sections', async ({ page, kyc, axe }) => {
  await signIn(page, kyc);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search/);
  await nav.getByRole('link', { name: 'Onboard legal entity' }).click();
  await expect(page).toHaveURL(/\/legal-entities\/new/);
  await nav.getByRole('link', { name: 'Entities' }).click();
  await expect(page).toHaveURL(/\/entities/);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await axe();
});

test('until its code has run, the page says the console is loading; then the console replaces it', async ({
  page,
}) => {
  // The scripts held back: what a slow connection shows before they arrive.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByRole('status')).toHaveText('Loading KYC Desk…');

  await page.unroute(/\/assets\/.*\.js$/);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Loading KYC Desk…')).toHaveCount(0);
});

import { expect, signIn, test } from './fixtures.ts';

test('a second tab opens signed in, and signing out in one signs out both', async ({
  page,
  context,
  kyc,
}) => {
  const second = await context.newPage();
  await second.goto('/entities');
  await expect(second).toHaveURL(/\/login\?next=/);
  await expect(second.getByText(/No signed-in KYC Desk tab is open/)).toBeVisible();
  await second.close();

  await signIn(page, kyc);
  const other = await context.newPage();
  await other.goto('/search');
  await expect(other).toHaveURL(/\/search$/);
  await expect(other.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The token reached the new tab by hand-over, still only in sessionStorage.
  expect(
    await other.evaluate(() =>
      Object.keys(localStorage).filter((key) => localStorage.getItem(key)?.includes('eyJ')),
    ),
  ).toEqual([]);

  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other).toHaveURL(/\/login$/);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('You signed out in another tab')).toBeVisible();
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('eyJ');
});

test('the colour scheme follows the system and the switch is kept per browser', async ({
  page,
  kyc,
  axe,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, kyc);
  const scheme = () =>
    page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  expect(await scheme()).toBe('dark');
  await page.getByRole('button', { name: 'Colour scheme' }).click();
  await page.getByRole('menuitem', { name: 'Light' }).click();
  expect(await scheme()).toBe('light');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await scheme()).toBe('light');
  await axe();
});

import { expect, signIn, test } from './fixtures.ts';

// Tokens live 20 s here, so the session ends during the test.
test.use({ serverEnv: { TOKEN_TTL_SECONDS: '20' } });

test('when the session expires, a sign-in dialog opens over the page and the draft survives', async ({
  page,
  kyc,
}) => {
  await signIn(page, kyc, '/legal-entities/new');
  await page.getByRole('textbox', { name: 'Company name' }).fill('Still Here Holdings Ltd');
  await page.getByRole('textbox', { name: 'Registration number' }).fill('SH-20');

  const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(dialog).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveValue(
    'Still Here Holdings Ltd',
  );

  await dialog.getByLabel('Password', { exact: true }).fill(kyc.demo.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/legal-entities\/new$/);
  await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveValue(
    'Still Here Holdings Ltd',
  );
  await expect(page.getByRole('textbox', { name: 'Registration number' })).toHaveValue('SH-20');
});

import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

interface LegalEntityDetail {
  id: string;
  corporateInformation: { companyName: string };
}

test('a reviewer jumps to a company with Ctrl+K and reads the shortcuts with ?', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  // Four axe passes over the entity index (25 rows, its filters) and the palette.
  test.slow();
  const [first] = await apiData<{ id: string }[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=1',
  );
  if (!first) throw new Error('demo data has no legal entity');
  const company = await apiData<LegalEntityDetail>(
    request,
    kyc,
    `/api/v2/entities/legal-entities/${first.id}`,
  );
  const name = company.corporateInformation.companyName;

  await signIn(page, kyc);
  await expect(page.getByRole('table', { name: 'Entities' })).toBeVisible();

  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  await expect(palette.getByRole('option', { name: 'Entities' })).toBeVisible();
  await axe();

  await input.fill(name);
  const match = palette
    .getByRole('group', { name: 'Companies' })
    .getByRole('option', { name, exact: true })
    .first();
  await expect(match).toBeVisible();
  await expect(palette.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await axe();

  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(/\/entities\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);

  // An ID pasted into the palette opens that entity too.
  await page.goto('/entities');
  await expect(page.getByRole('table', { name: 'Entities' })).toBeVisible();
  await page.keyboard.press('Control+K');
  await input.fill(first.id);
  await expect(
    palette.getByRole('option', { name: `Open entity ${first.id}` }),
  ).toHaveAccessibleDescription(`Legal entity · ${name}`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/entities/${first.id}$`));

  // `?` in a text field is text; elsewhere it opens the help.
  await page.keyboard.press('Control+K');
  await input.fill('?');
  await expect(input).toHaveValue('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Open the command palette/ })).toBeVisible();
  await axe();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

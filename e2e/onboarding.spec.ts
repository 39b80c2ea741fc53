import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

test('a reviewer onboards a legal entity with a contact and a document; a double click creates one', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const registration = `E2E-${Date.now()}`;
  await signIn(page, kyc, '/legal-entities/new');
  await expect(page.getByRole('heading', { name: 'Onboard a legal entity' })).toBeVisible();
  await axe();

  // Checked in the browser with the server's schema before anything is sent.
  await page.getByRole('button', { name: 'Create legal entity' }).click();
  await expect(page.getByText('Enter the company name.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Company name' }).fill('Lanternfish Logistics Ltd');
  await page.getByRole('textbox', { name: 'Registration number' }).fill(registration);
  await page.getByRole('combobox', { name: 'Country' }).fill('United Kingdom');
  await page.getByRole('option', { name: 'United Kingdom (GB)' }).click();
  await page.getByRole('textbox', { name: 'DUNS' }).fill('004567890');
  await page.getByRole('textbox', { name: 'LEI' }).fill('5493001KJTIIGC8Y1R13'); // wrong check digits
  await page.getByRole('button', { name: 'Create legal entity' }).click();
  await expect(page.getByText(/Not a valid LEI/)).toBeVisible();
  await page.getByRole('textbox', { name: 'LEI' }).fill('5493001KJTIIGC8Y1R12');

  await page.getByRole('checkbox', { name: 'Add a primary contact' }).check();
  await page.getByRole('textbox', { name: 'First name' }).fill('Iris');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Okafor');
  await page
    .getByRole('textbox', { name: 'E-mail', exact: true })
    .fill('iris.okafor@lanternfish.example');

  await page.getByLabel('Supporting document files').setInputFiles({
    name: 'certificate.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n% e2e test document\n%%EOF\n'),
  });
  const attached = page.getByRole('group', { name: 'certificate.pdf' });
  await attached.getByLabel('Document type').click();
  await page.getByRole('option', { name: 'Certificate of Incorporation' }).click();

  await page.getByRole('button', { name: 'Create legal entity' }).dblclick();
  await expect(page).toHaveURL(/\/entities\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lanternfish Logistics Ltd');
  await expect(page.getByRole('button', { name: 'View certificate.pdf' })).toBeVisible();

  const ids = await apiData<string[]>(
    request,
    kyc,
    `/api/v2/entities/legal-entities?registrationNumber=${registration}`,
  );
  expect(ids).toHaveLength(1);
});

test('an onboarding draft survives a reload', async ({ page, kyc }) => {
  await signIn(page, kyc, '/legal-entities/new');
  await page.getByRole('textbox', { name: 'Company name' }).fill('Draft Keepers GmbH');
  await page.getByRole('textbox', { name: 'Registration number' }).fill('HRB 4711');
  await page.waitForTimeout(600); // the draft is saved 400 ms after the last change
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveValue(
    'Draft Keepers GmbH',
  );
  await expect(page.getByRole('textbox', { name: 'Registration number' })).toHaveValue('HRB 4711');
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await page
    .getByRole('dialog', { name: 'Discard this draft?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveValue('');
});

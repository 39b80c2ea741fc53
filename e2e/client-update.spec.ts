import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

interface ListedLegalEntity {
  id: string;
  corporateInformation: { companyName: string };
  linkedEntities?: { relationship?: string; entityID: string }[];
}

// A second portal besides PORTAL_DOMAIN, so the reviewer picks one of the allowed host names.
test.use({ serverEnv: { PORTAL_DOMAINS: 'portal.e2e.example' } });

test('a reviewer e-mails a client to request an update, and it arrives at the SMTP server', async ({
  page,
  kyc,
  smtp,
  request,
  axe,
}) => {
  const entities = await apiData<ListedLegalEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50',
  );
  const entity = entities.find((e) =>
    e.linkedEntities?.some((link) => link.relationship === 'Primary Contact'),
  );
  const contactId = entity?.linkedEntities?.find(
    (link) => link.relationship === 'Primary Contact',
  )?.entityID;
  if (!entity || !contactId)
    throw new Error('demo data has no legal entity with a primary contact');
  const contact = await apiData<{ personalInformation: { email: string } }>(
    request,
    kyc,
    `/api/v2/entities/natural-persons/${contactId}`,
  );

  await signIn(page, kyc, `/entities/${entity.id}`);
  await page.getByRole('button', { name: 'Request update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a client update' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Subject' })).not.toHaveValue('');
  await dialog.getByRole('combobox', { name: 'Client portal domain' }).click();
  await page.getByRole('option', { name: 'portal.e2e.example' }).click();
  const subject = `Please review your details ${Date.now()}`;
  await dialog.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await expect(dialog.getByRole('region', { name: 'Preview' })).toContainText(
    'https://portal.e2e.example/',
  );
  await axe();

  const received = smtp.messages.length;
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Update request sent to/)).toBeVisible();

  await expect.poll(() => smtp.messages.length).toBe(received + 1);
  const mail = smtp.messages.at(-1);
  expect(mail?.to).toEqual([contact.personalInformation.email]);
  expect(mail?.raw).toContain(subject);
  expect(mail?.raw).toContain('https://portal.e2e.example/portal/');

  const history = page.getByRole('table', { name: 'Update requests' });
  await expect(history).toContainText(subject);
  await expect(history).toContainText('Sent');
});

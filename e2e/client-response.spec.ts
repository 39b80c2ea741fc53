import AxeBuilder from '@axe-core/playwright';
import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

interface ListedLegalEntity {
  id: string;
  corporateInformation: { companyName: string };
  linkedEntities?: { relationship?: string; entityID: string }[];
}

const PDF = Buffer.from('%PDF-1.4\n% e2e client document\n%%EOF\n');
// A PNG's signature and an empty IHDR chunk: the bytes decide the type, not the name.
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde,
]);

/** The portal link of the newest e-mail, with its quoted-printable soft line breaks undone. */
function portalPath(raw: string | undefined): string {
  const match = /\/portal\/([A-Za-z0-9_-]{43})/.exec((raw ?? '').replace(/=\r?\n/g, ''));
  if (!match) throw new Error('the e-mail holds no portal link');
  return `/portal/${match[1] ?? ''}`;
}

test('a reviewer requests an update, the client answers through the portal, and the reviewer decides and closes it', async ({
  page,
  browser,
  kyc,
  smtp,
  request,
}) => {
  // Two browser contexts, a portal upload and two axe passes over the portal.
  test.slow();
  const entities = await apiData<ListedLegalEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50',
  );
  // The last with a primary contact: the client-update journey takes the first.
  const entity = entities
    .filter((e) => e.linkedEntities?.some((link) => link.relationship === 'Primary Contact'))
    .at(-1);
  if (!entity) throw new Error('demo data has no legal entity with a primary contact');
  const companyName = entity.corporateInformation.companyName;

  await signIn(page, kyc, `/entities/${entity.id}`);
  await page.getByRole('button', { name: 'Request update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a client update' });
  const subject = `Documents for your file ${Date.now()}`;
  await dialog.getByRole('textbox', { name: 'Subject' }).fill(subject);
  const received = smtp.messages.length;
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => smtp.messages.length).toBe(received + 1);
  const link = portalPath(smtp.messages.at(-1)?.raw);

  // The client: a phone, no session, the link from the e-mail.
  const client = await browser.newContext({
    baseURL: kyc.baseUrl,
    viewport: { width: 390, height: 844 },
  });
  try {
    const portal = await client.newPage();
    const clientAxe = async () => {
      const results = await new AxeBuilder({ page: portal }).analyze();
      expect(
        results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help}`),
      ).toEqual([]);
    };
    await portal.goto(link);
    await expect(portal.getByRole('heading', { name: subject })).toBeVisible();
    await clientAxe();
    await portal.setViewportSize({ width: 1366, height: 800 });
    await clientAxe();
    await portal.setViewportSize({ width: 390, height: 844 });

    await portal.getByLabel('Document type').selectOption('Proof of Identity');
    await portal
      .getByLabel('Files')
      .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF });
    await portal.getByLabel('Document type').selectOption('Proof of Address');
    await portal
      .getByLabel('Files')
      .setInputFiles({ name: 'utility-bill.png', mimeType: 'image/png', buffer: PNG });
    await expect(portal.getByRole('button', { name: /^Remove / })).toHaveCount(2);
    await portal.getByLabel('Phone number').fill('+44 20 7946 0999');
    await portal.getByLabel('E-mail address').fill('new.contact@client.example');
    await portal.getByRole('button', { name: 'Send' }).click();
    await expect(
      portal.getByRole('heading', { name: 'Thank you: your answer was sent' }),
    ).toBeVisible();
  } finally {
    await client.close();
  }

  // The queue's Responded window shows the entity.
  await page.goto('/reviews?due=responded&assignee=all');
  await expect(page.getByRole('tab', { name: /^Responded\s*\d+$/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.getByRole('link', { name: companyName, exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(companyName);

  const answer = page.getByRole('region', { name: 'Client response' });
  await expect(answer).toContainText(subject);
  const documents = answer.getByRole('region', { name: 'Documents from the client' });
  await expect(documents.getByText('From the client, not yet reviewed')).toHaveCount(2);

  await documents.getByRole('button', { name: 'Approve passport.pdf' }).click();
  await expect(documents.getByRole('listitem').filter({ hasText: 'passport.pdf' })).toContainText(
    'From the client, approved',
  );
  await documents.getByRole('button', { name: 'Reject utility-bill.png' }).click();
  await documents
    .getByRole('textbox', { name: 'Reason for rejecting utility-bill.png' })
    .fill('The bill is older than three months.');
  await documents.getByRole('button', { name: 'Reject document' }).click();
  await expect(
    documents.getByRole('listitem').filter({ hasText: 'utility-bill.png' }),
  ).toContainText('The bill is older than three months.');

  const diff = answer.getByRole('table', { name: 'Contact corrections' });
  await expect(diff.getByRole('row', { name: /Phone/ })).toContainText('+44 20 7946 0999');
  await expect(diff.getByRole('row', { name: /E-mail/ })).toContainText(
    'new.contact@client.example',
  );
  await answer
    .getByRole('button', { name: "Apply the client's contact corrections to the record" })
    .click();
  await expect(answer).toContainText(/Applied by /);
  const panelScan = await new AxeBuilder({ page })
    .include('section[aria-labelledby^="client-response-"]')
    .analyze();
  expect(
    panelScan.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help}`),
  ).toEqual([]);

  await answer.getByRole('button', { name: /^Mark the response of .* reviewed$/ }).click();
  await expect(answer).toBeHidden();
  const history = page.getByRole('table', { name: 'Update requests' });
  await expect(history.getByRole('row').filter({ hasText: subject })).toContainText('Reviewed');

  // Each step is in the entity's activity.
  const activity = page.getByRole('region', { name: 'Activity' });
  await expect(activity).toContainText('Marked a client response reviewed');
  await expect(activity).toContainText('Client responded to an update request');
  await expect(activity).toContainText('Applied the client’s contact corrections (e-mail, phone)');
  await expect(activity).not.toContainText('client-update.');
  // The client acted through the link: named as the client, never as `client:<id>`.
  await expect(activity).toContainText('(the client, via the update link)');
  await expect(activity).not.toContainText('client:');
});

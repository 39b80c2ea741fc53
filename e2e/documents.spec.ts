import crypto from 'node:crypto';
import fs from 'node:fs';
import { apiData } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

interface ListedEntity {
  id: string;
  type: string;
  supportingDocuments?: { documentId: string; fileName: string; mimeType?: string }[];
}

/** A legal entity of the demo data with a PDF among its documents. */
async function findEntityWithPdf(
  request: Parameters<typeof apiData>[0],
  kyc: Parameters<typeof apiData>[1],
) {
  const entities = await apiData<ListedEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50&supportingDocuments=true',
  );
  const entity = entities.find((e) =>
    e.supportingDocuments?.some((d) => d.mimeType === 'application/pdf'),
  );
  const document = entity?.supportingDocuments?.find((d) => d.mimeType === 'application/pdf');
  if (!entity || !document) throw new Error('demo data has no legal entity with a PDF');
  return { entity, document };
}

test('a reviewer reads a legal entity, views a document and downloads the exact bytes', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const entities = await apiData<ListedEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50&supportingDocuments=true&corporateVerification=true',
  );
  const entity = entities.find((e) =>
    e.supportingDocuments?.some((d) => d.mimeType === 'application/pdf'),
  );
  const document = entity?.supportingDocuments?.find((d) => d.mimeType === 'application/pdf');
  if (!entity || !document) throw new Error('demo data has no legal entity with a PDF');
  const stored = await apiData<{ file: string }>(
    request,
    kyc,
    `/api/v2/documents/${document.documentId}`,
  );
  const storedSha = crypto
    .createHash('sha256')
    .update(Buffer.from(stored.file, 'base64'))
    .digest('hex');

  await signIn(page, kyc, `/entities/${entity.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Corporate information/i })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Verifications/i })).toBeVisible();
  await axe();

  await page.getByRole('button', { name: `View ${document.fileName}` }).click();
  const viewer = page.getByRole('dialog', { name: document.fileName });
  await expect(viewer).toBeVisible();
  await expect(viewer.locator('iframe, object, embed').first()).toBeVisible();
  // Its decision state; auditor.spec, on the same server, may have rejected this document first.
  await expect(viewer.getByText(/not approved|approved|rejected/i).first()).toBeVisible();
  await axe();

  const downloadPromise = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(document.fileName);
  const downloaded = fs.readFileSync(await download.path());
  expect(crypto.createHash('sha256').update(downloaded).digest('hex')).toBe(storedSha);

  await viewer.getByRole('button', { name: 'Close viewer' }).click();
  await expect(viewer).toBeHidden();
});

test('Escape closes the document viewer even after a click into the PDF', async ({
  page,
  kyc,
  request,
}) => {
  const { entity, document } = await findEntityWithPdf(request, kyc);
  await signIn(page, kyc, `/entities/${entity.id}`);
  await page.getByRole('button', { name: `View ${document.fileName}` }).click();
  const viewer = page.getByRole('dialog', { name: document.fileName });
  const frame = viewer.locator('iframe').first();
  await expect(frame).toBeVisible();

  await frame.click();
  await page.waitForTimeout(300); // the viewer hands focus back on the next frame
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

test('an image document opens with zoom and rotate controls', async ({ page, kyc, request }) => {
  const entities = await apiData<ListedEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=100&supportingDocuments=true',
  );
  const entity = entities.find((e) =>
    e.supportingDocuments?.some((d) => d.mimeType === 'image/png'),
  );
  const document = entity?.supportingDocuments?.find((d) => d.mimeType === 'image/png');
  if (!entity || !document) throw new Error('demo data has no legal entity with a PNG');

  await signIn(page, kyc, `/entities/${entity.id}`);
  await page.getByRole('button', { name: `View ${document.fileName}` }).click();
  const viewer = page.getByRole('dialog', { name: document.fileName });
  const image = viewer.locator('img[data-rotation]');
  await expect(image).toBeVisible();
  const zoomBefore = Number(await image.getAttribute('data-zoom'));
  await viewer.getByRole('button', { name: 'Rotate' }).click();
  await expect(image).toHaveAttribute('data-rotation', '90');
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await expect
    .poll(async () => Number(await image.getAttribute('data-zoom')))
    .toBeGreaterThan(zoomBefore);
});

test('an unknown entity ID shows a not-found page', async ({ page, kyc }) => {
  await signIn(page, kyc, '/entities/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText(/No entity with ID/i)).toBeVisible();
});

test('a reviewer follows a linked person to their page and back to the company', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const entities = await apiData<{ id: string; linkedEntities?: { entityID: string }[] }[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=20',
  );
  const entity = entities.find((e) => (e.linkedEntities?.length ?? 0) > 0);
  if (!entity) throw new Error('demo data has no legal entity with linked people');

  await signIn(page, kyc, `/entities/${entity.id}`);
  await expect(page.getByRole('heading', { name: 'Corporate information' })).toBeVisible();
  const company = await page.getByRole('heading', { level: 1 }).textContent();
  await page.getByRole('region', { name: 'Linked people' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await axe();
  await page
    .getByRole('region', { name: 'Linked legal entities' })
    .getByRole('link', { name: company ?? '' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/entities/${entity.id}$`));
});

test('on a phone the documents are cards, and the viewer keeps Close and Download on screen', async ({
  page,
  kyc,
  request,
  axe,
}) => {
  const { entity, document } = await findEntityWithPdf(request, kyc);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, kyc, `/entities/${entity.id}`);
  const cards = page.getByRole('list', { name: 'Documents' });
  await expect(cards).toBeVisible();
  // Nothing in the list is wider than the phone: no sideways scroll to reach View.
  const widest = await cards.evaluate((list) =>
    Math.max(...[...list.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(390);
  const view = page.getByRole('button', { name: `View ${document.fileName}` });
  await view.scrollIntoViewIfNeeded();
  await axe();
  await view.click();
  const viewer = page.getByRole('dialog', { name: document.fileName });
  await expect(viewer.locator('iframe').first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Close', exact: true })).toBeInViewport({
    ratio: 1,
  });
  await expect(viewer.getByRole('button', { name: 'Download' })).toBeInViewport({ ratio: 1 });
  await viewer.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(viewer).toBeHidden();
});

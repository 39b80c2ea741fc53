import { execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apiData } from './api.ts';
import { expect, startServerProcess, test } from './fixtures.ts';

interface ListedLegalEntity {
  id: string;
  corporateInformation: { companyName: string };
  linkedEntities?: { relationship?: string; entityID: string }[];
}

const WEBHOOK_SECRET = crypto.randomBytes(32).toString('hex');
let gateway: { child: ChildProcess; baseUrl: string; dataDir: string } | undefined;

// The worker's embedded server is the identity service; a gateway with webhooks stands in front of it.
test.beforeAll(async ({ kyc }) => {
  const created = execFileSync(
    path.resolve('node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'account:create', 'response-gateway', '--json'],
    { env: { ...process.env, DATA_DIR: kyc.dataDir }, encoding: 'utf8' },
  );
  const { apiKey } = JSON.parse(created.trim().split('\n').at(-1) ?? '{}') as { apiKey: string };
  gateway = await startServerProcess({
    KYC_UPSTREAM_URL: kyc.baseUrl,
    KYC_UPSTREAM_API_KEY: apiKey,
    WEBHOOK_SECRET,
  });
});

test.afterAll(() => {
  gateway?.child.kill('SIGTERM');
  if (gateway) fs.rmSync(gateway.dataDir, { recursive: true, force: true });
});

test('through the gateway, the service’s signed webhook puts the answer on top and the reviewer marks it reviewed', async ({
  page,
  kyc,
  request,
}) => {
  if (!gateway) throw new Error('gateway not started');
  test.slow();
  const entities = await apiData<ListedLegalEntity[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=50',
  );
  const entity = entities.find((e) =>
    e.linkedEntities?.some((link) => link.relationship === 'Primary Contact'),
  );
  if (!entity) throw new Error('demo data has no legal entity with a primary contact');

  await page.goto(`${gateway.baseUrl}/login?next=${encodeURIComponent(`/entities/${entity.id}`)}`);
  await page.getByLabel('Username').fill(kyc.demo.username);
  await page.getByLabel('Password', { exact: true }).fill(kyc.demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/entities/${entity.id}$`));
  await page.getByRole('button', { name: 'Request update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a client update' });
  const subject = `Gateway update ${Date.now()}`;
  await dialog.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();

  // The identity service's "supporting documents uploaded", signed as decisions.md says.
  const body = JSON.stringify({
    id: crypto.randomUUID(),
    event: 'supporting documents uploaded',
    eventType: 'client.documents',
    data: { entityId: entity.id },
    creationTimeUtc: new Date().toISOString(),
  });
  const signature = crypto.createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
  const delivered = await request.post(`${gateway.baseUrl}/api/webhooks/kyc`, {
    headers: { 'Content-Type': 'application/json', 'X-Webhook-Signature': `sha256=${signature}` },
    data: body,
  });
  expect(delivered.status()).toBeLessThan(300);

  await page.reload();
  const answer = page.getByRole('region', { name: 'Client response' });
  await expect(answer).toContainText(subject);
  await expect(answer).toContainText(
    'The answer holds no documents or contact corrections to review here.',
  );
  await answer.getByRole('button', { name: /^Mark the response of .* reviewed$/ }).click();
  await expect(answer).toBeHidden();
  const history = page.getByRole('table', { name: 'Update requests' });
  await expect(history.getByRole('row').filter({ hasText: subject })).toContainText('Reviewed');
});

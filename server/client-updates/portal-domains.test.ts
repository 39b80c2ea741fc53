import fs from 'node:fs/promises';
import path from 'node:path';
import {
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
} from '../../contract/client-updates.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { loadConfig } from '../env.ts';
import { readMime } from '../testing/read-mime.ts';
import { insertLegalEntity, type InsertedLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

let server: TestServer;
let fixture: InsertedLegalEntity;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      PORTAL_DOMAIN: 'portal.deployment.example',
      PORTAL_DOMAINS: ' Clients.Example.org ,portal-eu.deployment.example',
    },
  });
  fixture = await insertLegalEntity(server.app.services.db);
});

afterAll(async () => {
  await server.close();
});

function requestUpdate(domain: string, entityId = fixture.legalEntityId) {
  return server.request(`/api/v2/entities/legal-entities/${entityId}/request-client-update`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      recepientId: fixture.primaryContactId,
      emailSubject: 'Annual review',
      emailMessage: 'Please check your details.',
      configId: 1,
      domain,
    }),
  });
}

/** The plain-text part of the e-mail written to the outbox. */
async function outboxText(requestId: string): Promise<string> {
  const raw = await fs.readFile(path.join(server.dataDir, 'outbox', `${requestId}.eml`));
  return readMime(raw).text ?? '';
}

test('the configurations list the allowed portal host names beside data, PORTAL_DOMAIN first', async () => {
  const response = await server.request('/api/v2/client-update-configs');
  expect(response.status).toBe(200);
  const body = clientUpdateConfigListResponseSchema.parse(response.body);
  expect(body.allowedDomains).toEqual([
    'portal.deployment.example',
    'clients.example.org',
    'portal-eu.deployment.example',
  ]);
  expect(body.data.map((config) => config.defaultDomain)).toEqual([
    'portal.deployment.example',
    'portal.deployment.example',
  ]);
});

test('a link to any other host is 400 naming domain, and nothing is sent or recorded', async () => {
  for (const domain of [
    'attacker-portal.example',
    '169.254.169.254',
    '127.0.0.1',
    'localhost',
    // Punycode look-alikes of the allowed names (Cyrillic о, а).
    'xn--prtal-ueg.deployment.example',
    'portal.deployment.xn--exmple-4nf',
    // No suffix or prefix matching.
    'evil.portal.deployment.example',
    'portal.deployment.example.evil.example',
    'deployment.example',
    'portal.deployment.examplex',
    'example.org',
  ]) {
    const response = await requestUpdate(domain);
    expect(response.status, domain).toBe(400);
    const error = errorEnvelopeSchema.parse(response.body);
    expect(error.message, domain).toMatch(/domain/);
    expect(
      error.errors?.map((fieldError) => fieldError.field),
      domain,
    ).toEqual(['domain']);
  }
  const history = await server.request(
    `/api/v2/entities/legal-entities/${fixture.legalEntityId}/client-update-requests`,
  );
  expect(clientUpdateHistoryResponseSchema.parse(history.body).data).toEqual([]);
  await expect(fs.readdir(path.join(server.dataDir, 'outbox'))).rejects.toThrow();
});

test('a refused domain is 400 even for an unknown legal entity: the body is checked first', async () => {
  const response = await requestUpdate('attacker-portal.example', crypto.randomUUID());
  expect(response.status).toBe(400);
});

test('PORTAL_DOMAIN and PORTAL_DOMAINS are accepted in any letter case, and the link uses them', async () => {
  for (const [sent, host] of [
    ['Portal.Deployment.EXAMPLE', 'portal.deployment.example'],
    ['clients.example.org', 'clients.example.org'],
    ['PORTAL-EU.deployment.example', 'portal-eu.deployment.example'],
  ] as const) {
    const response = await requestUpdate(sent);
    expect(response.status, sent).toBe(202);
    const { requestId } = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    expect(await outboxText(requestId)).toContain(`https://${host}/client-update/${requestId}`);
  }
});

test('PORTAL_DOMAINS is checked at start-up: anything but host names stops the start naming it', () => {
  const base = { DATA_DIR: server.dataDir };
  expect(loadConfig({ ...base, PORTAL_DOMAINS: ' A.example, b.example ,' }).portalDomains).toEqual([
    'a.example',
    'b.example',
  ]);
  expect(loadConfig(base).portalDomains).toEqual([]);
  for (const value of [
    'https://portal.example.com',
    '*.example.com',
    'portal.example.com:8443',
    'portal.example.com/path',
    'portal.example.com; evil.example',
  ]) {
    expect(() => loadConfig({ ...base, PORTAL_DOMAINS: value }), value).toThrow(/PORTAL_DOMAINS/);
  }
});

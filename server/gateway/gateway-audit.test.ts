import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { capabilitiesResponseSchema } from '../../contract/capabilities.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { reviewersRepository } from './reviewers-repository.ts';

let server: TestServer;
let gatewayDb: Db;
let token: string;

async function signIn(password: string) {
  return server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: server.account.username, Password: password }),
  });
}

async function gatewayEvents() {
  return gatewayDb.selectFrom('audit_events').selectAll().orderBy('seq').execute();
}

async function lastGatewayEvent() {
  const event = (await gatewayEvents()).at(-1);
  if (!event) throw new Error('no audit event in the gateway');
  return event;
}

beforeAll(async () => {
  server = await startTestServer({ mode: 'gateway' });
  // The harness gives the gateway a SQLite database of its own in DATA_DIR/gateway.
  gatewayDb = (await openDatabase(path.join(server.dataDir, 'gateway'))).db;
  const signedIn = await signIn(server.account.password);
  expect(signedIn.status).toBe(200);
  token = (signedIn.body as { token: string }).token;
});
afterAll(async () => {
  await gatewayDb.destroy();
  await server.close();
});

const asReviewer = () => ({ auth: 'none' as const, headers: { Authorization: `Bearer ${token}` } });

describe('gateway mode: the reviewer who signed in is the actor', () => {
  test('sign-in binds the token to the name given, and a failure is recorded', async () => {
    const signInEvent = (await gatewayEvents()).find((event) => event.action === 'auth.sign-in');
    expect(signInEvent).toMatchObject({ actor: server.account.username, outcome: 'success' });
    expect((await signIn('wrong')).status).toBe(401);
    expect(await lastGatewayEvent()).toMatchObject({
      actor: server.account.username,
      action: 'auth.sign-in-failed',
      outcome: 'failure',
    });
  });

  test('forwarded reads and a create are events of that reviewer, not of the gateway account', async () => {
    const created = await postLegalEntity(server, legalEntityPayload(), {
      headers: { Authorization: `Bearer ${token}` },
      auth: 'none',
    });
    expect(created.status).toBe(201);
    expect(await lastGatewayEvent()).toMatchObject({
      actor: server.account.username,
      action: 'entity.create',
      outcome: 'success',
    });
    const id = (created.body as { data: { id: string } }).data.id;
    const steps: [string, Record<string, unknown>][] = [
      ['/api/v2/entities?limit=2', { action: 'entity.list' }],
      ['/api/v2/entities/legal-entities?companyName=acme', { action: 'entity.search' }],
      [`/api/v2/entities/legal-entities/${id}`, { action: 'entity.view', entity_id: id }],
      [`/api/v2/entities/${id}/documents`, { action: 'document.list', entity_id: id }],
    ];
    for (const [pathAndQuery, expected] of steps) {
      expect((await server.request(pathAndQuery, asReviewer())).status).toBe(200);
      expect(await lastGatewayEvent()).toMatchObject({
        actor: server.account.username,
        outcome: 'success',
        ...expected,
      });
    }
    // The gateway's own records name the same reviewer: a note's author.
    const note = await server.request(`/api/v2/entities/${id}/notes`, {
      ...asReviewer(),
      method: 'POST',
      headers: { ...asReviewer().headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Checked the register.' }),
    });
    expect(note.status).toBe(201);
    expect((note.body as { data: { author: string } }).data.author).toBe(server.account.username);
    expect(await lastGatewayEvent()).toMatchObject({ action: 'note.add', entity_id: id });
    expect((await server.request('/api/v2/documents/unknown-doc', asReviewer())).status).toBe(404);
    expect(await lastGatewayEvent()).toMatchObject({
      action: 'document.view',
      document_id: 'unknown-doc',
      outcome: 'failure',
    });
  });

  test('capabilities say gateway; the log is for reviewers made auditors on the gateway', async () => {
    const capabilities = capabilitiesResponseSchema.parse(
      (await server.request('/api/capabilities', asReviewer())).body,
    ).data;
    expect(capabilities).toMatchObject({
      mode: 'gateway',
      features: {
        reviewQueue: false,
        recordVerification: false,
        notes: true,
        auditTrail: true,
        assignment: true,
        waitingForMe: false,
        overview: false,
      },
      account: { username: server.account.username, role: 'reviewer' },
    });
    expect((await server.request('/api/v2/audit-events', asReviewer())).status).toBe(403);

    await reviewersRepository(gatewayDb).setRole(server.account.username, 'auditor');
    const log = await server.request('/api/v2/audit-events?action=entity.view', asReviewer());
    expect(log.status).toBe(200);
    const page = auditEventPageSchema.parse(log.body);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((event) => event.actor === server.account.username)).toBe(true);
  });
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { auditEventPageSchema, type AuditEvent } from '../../contract/audit.ts';
import { recordedVerificationResponseSchema } from '../../contract/decisions.ts';
import { legalEntityResponseSchema } from '../../contract/entities.ts';
import { createAccount } from '../auth/accounts.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function activity(entityId: string, kind?: string): Promise<AuditEvent[]> {
  const query = kind === undefined ? '' : `?kind=${kind}`;
  const answer = await server.request(`/api/v2/entities/${entityId}/audit-events${query}`);
  expect(answer.status).toBe(200);
  return auditEventPageSchema.parse(answer.body).data;
}

const actionsOf = (events: AuditEvent[]) => events.map((event) => event.action);

test('kind=changes leaves views and listings out, kind=views keeps only them, all has both', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  expect((await server.request(`/api/v2/entities/legal-entities/${legalEntityId}`)).status).toBe(
    200,
  );
  expect((await server.request(`/api/v2/entities/${legalEntityId}/documents`)).status).toBe(200);
  const note = await server.request(
    `/api/v2/entities/${legalEntityId}/notes`,
    json({ text: 'Called the director.' }),
  );
  expect(note.status).toBe(201);
  expect((await server.request(`/api/v2/entities/legal-entities/${legalEntityId}`)).status).toBe(
    200,
  );

  expect(actionsOf(await activity(legalEntityId, 'changes'))).toEqual(['note.add']);
  expect(actionsOf(await activity(legalEntityId, 'views'))).toEqual([
    'entity.view',
    'document.list',
    'entity.view',
  ]);
  const all = actionsOf(await activity(legalEntityId));
  expect(all).toEqual(actionsOf(await activity(legalEntityId, 'all')));
  expect(all).toEqual(['entity.view', 'note.add', 'document.list', 'entity.view']);

  const unknownKind = await server.request(
    `/api/v2/entities/${legalEntityId}/audit-events?kind=decisions`,
  );
  expect(unknownKind.status).toBe(400);
});

test('kind=changes pages through changes only, however many views come between', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  for (const text of ['First note.', 'Second note.', 'Third note.']) {
    await server.request(`/api/v2/entities/${legalEntityId}/notes`, json({ text }));
    for (let view = 0; view < 3; view += 1) {
      await server.request(`/api/v2/entities/legal-entities/${legalEntityId}`);
    }
  }
  const first = auditEventPageSchema.parse(
    (await server.request(`/api/v2/entities/${legalEntityId}/audit-events?kind=changes&limit=2`))
      .body,
  );
  expect(actionsOf(first.data)).toEqual(['note.add', 'note.add']);
  expect(first.nextCursor).not.toBeNull();
  const second = auditEventPageSchema.parse(
    (
      await server.request(
        `/api/v2/entities/${legalEntityId}/audit-events?kind=changes&limit=2&cursor=${first.nextCursor ?? ''}`,
      )
    ).body,
  );
  expect(actionsOf(second.data)).toEqual(['note.add']);
  expect(second.nextCursor).toBeNull();
});

test.skipIf(testMode === 'gateway')(
  'a document decision names the file, a rejected held outcome its status, a client update its recipient',
  async () => {
    const created = await server.request(
      '/api/v2/entities/legal-entities',
      json(
        legalEntityPayload({
          supportingDocuments: [
            {
              fileName: 'passport.pdf',
              type: 'Certificate of Incorporation',
              file: Buffer.from('%PDF-1.4 passport').toString('base64'),
            },
          ],
        }),
      ),
    );
    expect(created.status).toBe(201);
    const entity = legalEntityResponseSchema.parse(created.body).data;
    const documentId = entity.supportingDocuments?.[0]?.documentId ?? '';
    const rejected = await server.request(
      `/api/v2/documents/${documentId}`,
      json({ documentApproved: false, reason: 'Scan unreadable.' }, 'PATCH'),
    );
    expect(rejected.status).toBe(200);
    const [decision] = await activity(entity.id, 'changes');
    expect(decision).toMatchObject({
      action: 'document.decide',
      documentId,
      detail: { approved: false, reason: 'Scan unreadable.', fileName: 'passport.pdf' },
    });

    const { legalEntityId } = await insertLegalEntity(server.app.services.db, {
      entity: { risk_level: 'High', kyc_status: 'Review' },
      primaryContact: { first_name: 'Ada', last_name: 'Byrne' },
    });
    const held = recordedVerificationResponseSchema.parse(
      (
        await server.request(
          `/api/v2/entities/legal-entities/${legalEntityId}/verifications`,
          json({
            verificationStatus: 'Accepted',
            verificationDate: new Date().toISOString().slice(0, 10),
            verificationSource: 'Companies House',
            businessStatement: 'Annual review.',
            nextReviewDate: '2099-01-01',
            verificationIssues: [],
          }),
        )
      ).body,
    ).data;
    if (held.state !== 'pending') throw new Error('expected a held decision');
    const { apiKey } = await createAccount(server.app.services.db, 'second-reviewer');
    const reject = await server.request(`/api/v2/pending-verifications/${held.pending.id}/reject`, {
      ...json({ reason: 'Ownership not evidenced.' }),
      headers: {
        'content-type': 'application/json',
        'X-API-Key': apiKey,
      },
      auth: 'none',
    });
    expect(reject.status).toBe(200);
    const [rejection] = await activity(legalEntityId, 'changes');
    expect(rejection).toMatchObject({
      action: 'verification.reject',
      actor: 'second-reviewer',
      detail: {
        status: 'Accepted',
        reason: 'Ownership not evidenced.',
        recordedBy: server.account.username,
      },
    });

    const linked = legalEntityResponseSchema
      .parse((await server.request(`/api/v2/entities/legal-entities/${legalEntityId}`)).body)
      .data.linkedEntities?.find((link) => link.relationship === 'Primary Contact');
    const update = await server.request(
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      json({
        recepientId: linked?.entityID,
        emailSubject: 'Please update',
        emailMessage: 'Hello',
        configId: 1,
        domain: 'portal.kyc-desk.local',
      }),
    );
    expect(update.status).toBe(202);
    const [request] = await activity(legalEntityId, 'changes');
    expect(request).toMatchObject({
      action: 'client-update.request',
      outcome: 'success',
      detail: { recipientId: linked?.entityID, recipientName: 'Ada Byrne', configId: 1 },
    });
  },
);

test("each event carries its actor's display name while the account exists here, else null", async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  const db = server.app.services.db;
  await db
    .updateTable('accounts')
    .set({ display_name: 'Rhea Reviewer' })
    .where('username', '=', server.account.username)
    .execute();
  try {
    await server.request(`/api/v2/entities/${legalEntityId}/notes`, json({ text: 'Named.' }));
    const [added] = await activity(legalEntityId, 'changes');
    if (testMode === 'gateway') {
      // The gateway's own trail names the caller as its token did; it holds no accounts to name.
      expect(added).toMatchObject({ action: 'note.add', actorName: null });
    } else {
      expect(added).toMatchObject({
        action: 'note.add',
        actor: server.account.username,
        actorName: 'Rhea Reviewer',
      });
      const former = await createAccount(db, `former-${legalEntityId.slice(0, 6)}`, {
        displayName: 'Former Colleague',
      });
      await server.request(`/api/v2/entities/${legalEntityId}/notes`, {
        ...json({ text: 'Before I left.' }),
        auth: 'none',
        headers: { 'content-type': 'application/json', 'X-API-Key': former.apiKey },
      });
      await db.deleteFrom('accounts').where('username', '=', former.username).execute();
      const [departed] = await activity(legalEntityId, 'changes');
      expect(departed).toMatchObject({ actor: former.username, actorName: null });
    }
  } finally {
    await db
      .updateTable('accounts')
      .set({ display_name: server.account.username })
      .where('username', '=', server.account.username)
      .execute();
  }
});

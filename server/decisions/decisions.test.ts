import {
  pendingVerificationListResponseSchema,
  pendingVerificationResponseSchema,
  recordedVerificationResponseSchema,
  type RecordVerificationInput,
} from '../../contract/decisions.ts';
import fc from 'fast-check';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  KYC_STATUSES,
  legalEntityResponseSchema,
} from '../../contract/entities.ts';
import { createAccount } from '../auth/accounts.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { loadConfig } from '../env.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { testPdf } from '../testing/document-files.ts';

const TODAY = '2026-06-15';
const now = () => new Date(`${TODAY}T09:30:00.000Z`);

/** A second reviewer on the same server, calling with its own API key. */
interface OtherReviewer {
  username: string;
  request: TestServer['request'];
}

async function secondReviewer(server: TestServer): Promise<OtherReviewer> {
  const username = `second-${Math.random().toString(36).slice(2, 8)}`;
  const { apiKey } = await createAccount(server.app.services.db, username);
  return {
    username,
    request: (pathAndQuery, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('X-API-Key', apiKey);
      return server.request(pathAndQuery, { ...init, headers, auth: 'none' });
    },
  };
}

function outcome(overrides: Partial<RecordVerificationInput> = {}): RecordVerificationInput {
  return {
    verificationStatus: 'Review',
    verificationDate: TODAY,
    verificationSource: 'Companies House',
    businessStatement: 'Annual review; accounts filed on time.',
    nextReviewDate: '2028-06-15',
    verificationIssues: ['Director changed in March'],
    ...overrides,
  };
}

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const verificationsPath = (id: string) => `/api/v2/entities/legal-entities/${id}/verifications`;
const pendingPath = (id: string) => `/api/v2/entities/legal-entities/${id}/pending-verifications`;

async function legalEntityOf(server: TestServer, id: string) {
  const { body } = await server.request(`/api/v2/entities/legal-entities/${id}`);
  return legalEntityResponseSchema.parse(body).data;
}

async function overdueEntity(server: TestServer, riskLevel: string) {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db, {
    entity: { risk_level: riskLevel, kyc_status: 'Review', next_kyc_review: '2026-01-31' },
  });
  return legalEntityId;
}

describe('recording a review outcome (FOUR_EYES=high, the default)', () => {
  let server: TestServer;
  let other: OtherReviewer;
  beforeAll(async () => {
    server = await startTestServer({ now });
    other = await secondReviewer(server);
  });
  afterAll(() => server.close());

  test('appends the verification and makes it the current status and next review, in cached pages too', async () => {
    const id = await overdueEntity(server, 'Medium');
    // Read first, so that a stale cached page would be served afterwards if writes did not clear it.
    expect((await legalEntityOf(server, id)).kycMetaData?.nextKYCReview).toBe('2026-01-31');

    const { status, body } = await server.request(
      verificationsPath(id),
      json(outcome({ verificationStatus: 'Accepted' })),
    );
    expect(status).toBe(201);
    const recorded = recordedVerificationResponseSchema.parse(body).data;
    expect(recorded).toMatchObject({
      state: 'applied',
      kycStatus: 'Accepted',
      nextKYCReview: '2028-06-15',
      verification: {
        verificationStatus: 'Accepted',
        verificationDate: TODAY,
        verificationSource: 'Companies House',
        legalEntityVerification: true,
        verificationIssues: ['Director changed in March'],
      },
    });

    const entity = await legalEntityOf(server, id);
    expect(entity.kycMetaData?.kycStatus).toBe('Accepted');
    // Out of the overdue window: the next review is later than today.
    expect(entity.kycMetaData?.nextKYCReview).toBe('2028-06-15');
    expect((entity.kycMetaData?.nextKYCReview ?? '') > TODAY).toBe(true);
    expect(entity.kycMetaData?.lastUpdate).toBe(now().toISOString());
    const ids = entity.corporateVerifications?.map((verification) => verification.id);
    expect(ids).toContain(recorded.state === 'applied' ? recorded.verification.id : '');
    // The entity's list record is stored again in the same transaction, not left to be rebuilt on every read.
    const record = await server.app.services.db
      .selectFrom('entity_list_records')
      .select('tail')
      .where('entity_id', '=', id)
      .executeTakeFirst();
    expect(record?.tail).toContain('"kycStatus":"Accepted"');
  });

  test('refuses a bad outcome with field errors, an unknown or natural-person id with 404, a form with 415', async () => {
    const id = await overdueEntity(server, 'Low');
    const early = await server.request(
      verificationsPath(id),
      json(outcome({ nextReviewDate: '2026-06-14' })),
    );
    expect(early.status).toBe(400);
    expect(errorEnvelopeSchema.parse(early.body).errors?.[0]?.field).toBe('nextReviewDate');

    const badStatus = await server.request(
      verificationsPath(id),
      json({ ...outcome(), verificationStatus: 'Fine' }),
    );
    expect(badStatus.status).toBe(400);
    expect(errorEnvelopeSchema.parse(badStatus.body).message).toContain('verificationStatus');

    const withId = await server.request(verificationsPath(id), json({ ...outcome(), id: 'v-1' }));
    expect(withId.status).toBe(400);
    expect(errorEnvelopeSchema.parse(withId.body).errors?.[0]?.field).toBe('id');

    const unknown = await server.request(verificationsPath('no-such-entity'), json(outcome()));
    expect(unknown.status).toBe(404);
    const person = await insertNaturalPerson(server.app.services.db);
    expect((await server.request(verificationsPath(person), json(outcome()))).status).toBe(404);

    const form = await server.request(verificationsPath(id), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'verificationStatus=Accepted',
    });
    expect(form.status).toBe(415);
    expect((await legalEntityOf(server, id)).kycMetaData?.kycStatus).toBe('Review');
  });

  test('an Accepted outcome for a High-risk entity waits; its author cannot confirm it, another account can', async () => {
    const id = await overdueEntity(server, 'High');
    const held = await server.request(
      verificationsPath(id),
      json(outcome({ verificationStatus: 'Accepted' })),
    );
    expect(held.status).toBe(201);
    const recorded = recordedVerificationResponseSchema.parse(held.body).data;
    if (recorded.state !== 'pending') throw new Error('expected a pending decision');
    expect(recorded.pending).toMatchObject({
      entityId: id,
      rule: 'high',
      state: 'pending',
      requestedBy: server.account.username,
      verification: { verificationStatus: 'Accepted', nextReviewDate: '2028-06-15' },
    });
    // The entity is unchanged until a second reviewer confirms.
    let entity = await legalEntityOf(server, id);
    expect(entity.kycMetaData?.kycStatus).toBe('Review');
    expect(entity.kycMetaData?.nextKYCReview).toBe('2026-01-31');

    const listed = await other.request(pendingPath(id));
    expect(pendingVerificationListResponseSchema.parse(listed.body).data.map((p) => p.id)).toEqual([
      recorded.pending.id,
    ]);

    // A second decision on the same entity, held or not, is refused while one waits.
    const second = await other.request(
      verificationsPath(id),
      json(outcome({ verificationStatus: 'Accepted' })),
    );
    expect(second.status).toBe(409);
    expect((await other.request(verificationsPath(id), json(outcome()))).status).toBe(409);

    const confirmPath = `/api/v2/pending-verifications/${recorded.pending.id}/confirm`;
    const own = await server.request(confirmPath, { method: 'POST' });
    expect(own.status).toBe(403);
    expect(errorEnvelopeSchema.parse(own.body).message).toMatch(/four-eyes rule/i);
    const ownReject = await server.request(
      `/api/v2/pending-verifications/${recorded.pending.id}/reject`,
      json({ reason: 'Changed my mind' }),
    );
    expect(ownReject.status).toBe(403);

    const confirmed = await other.request(confirmPath, json({}));
    expect(confirmed.status).toBe(200);
    expect(recordedVerificationResponseSchema.parse(confirmed.body).data).toMatchObject({
      state: 'applied',
      kycStatus: 'Accepted',
      nextKYCReview: '2028-06-15',
    });
    entity = await legalEntityOf(server, id);
    expect(entity.kycMetaData?.kycStatus).toBe('Accepted');
    expect(entity.kycMetaData?.nextKYCReview).toBe('2028-06-15');
    expect(
      pendingVerificationListResponseSchema.parse((await server.request(pendingPath(id))).body)
        .data,
    ).toEqual([]);

    // Both decisions are in the entity's audit trail, each under its own reviewer.
    const events = (
      (await server.request(`/api/v2/entities/${id}/audit-events`)).body as {
        data: { action: string; actor: string }[];
      }
    ).data.map((event) => `${event.action} ${event.actor}`);
    expect(events).toEqual(
      expect.arrayContaining([
        `verification.record ${server.account.username}`,
        `verification.confirm ${other.username}`,
      ]),
    );

    expect((await other.request(confirmPath, { method: 'POST' })).status).toBe(409);
    expect(
      (await other.request('/api/v2/pending-verifications/no-such-decision/confirm', json({})))
        .status,
    ).toBe(404);
  });

  test('a second reviewer rejects a held decision with a reason: it is discarded and the entity unchanged', async () => {
    const id = await overdueEntity(server, 'High');
    const held = recordedVerificationResponseSchema.parse(
      (
        await server.request(
          verificationsPath(id),
          json(outcome({ verificationStatus: 'Accepted' })),
        )
      ).body,
    ).data;
    if (held.state !== 'pending') throw new Error('expected a pending decision');
    const rejectPath = `/api/v2/pending-verifications/${held.pending.id}/reject`;

    const noReason = await other.request(rejectPath, json({ reason: '   ' }));
    expect(noReason.status).toBe(400);
    expect(errorEnvelopeSchema.parse(noReason.body).errors?.[0]?.field).toBe('reason');

    const rejected = await other.request(rejectPath, json({ reason: 'Ownership not evidenced.' }));
    expect(rejected.status).toBe(200);
    expect(pendingVerificationResponseSchema.parse(rejected.body).data).toMatchObject({
      state: 'rejected',
      decidedBy: other.username,
      reason: 'Ownership not evidenced.',
    });
    const entity = await legalEntityOf(server, id);
    expect(entity.kycMetaData?.kycStatus).toBe('Review');
    expect(entity.corporateVerifications).toEqual([]);
    expect(
      pendingVerificationListResponseSchema.parse((await server.request(pendingPath(id))).body)
        .data,
    ).toEqual([]);
    // Rejected is final: it cannot be confirmed afterwards, and a new outcome may be recorded.
    expect(
      (await other.request(`/api/v2/pending-verifications/${held.pending.id}/confirm`, json({})))
        .status,
    ).toBe(409);
    expect((await server.request(verificationsPath(id), json(outcome()))).status).toBe(201);
  });

  test("a held decision lists its author's display name, and null once the account is gone", async () => {
    const db = server.app.services.db;
    const author = await createAccount(db, `named-${Math.random().toString(36).slice(2, 8)}`, {
      displayName: 'Rhea Reviewer',
    });
    const asAuthor = (init: RequestInit): RequestInit & { auth: 'none' } => ({
      ...init,
      auth: 'none',
      headers: { 'content-type': 'application/json', 'X-API-Key': author.apiKey },
    });
    const id = await overdueEntity(server, 'High');
    const held = await server.request(
      verificationsPath(id),
      asAuthor(json(outcome({ verificationStatus: 'Accepted' }))),
    );
    expect(held.status).toBe(201);
    const listed = async () =>
      pendingVerificationListResponseSchema.parse((await other.request(pendingPath(id))).body)
        .data[0];
    expect(await listed()).toMatchObject({
      requestedBy: author.username,
      requestedByName: 'Rhea Reviewer',
    });
    await db.deleteFrom('accounts').where('username', '=', author.username).execute();
    expect(await listed()).toMatchObject({ requestedBy: author.username, requestedByName: null });
  });

  test('outcomes other than Accepted, and Accepted for lower risk, apply at once', async () => {
    const high = await overdueEntity(server, 'High');
    const rejected = await server.request(
      verificationsPath(high),
      json(outcome({ verificationStatus: 'Rejected' })),
    );
    expect(recordedVerificationResponseSchema.parse(rejected.body).data.state).toBe('applied');
    const medium = await overdueEntity(server, 'Medium');
    const accepted = await server.request(
      verificationsPath(medium),
      json(outcome({ verificationStatus: 'Accepted' })),
    );
    expect(recordedVerificationResponseSchema.parse(accepted.body).data.state).toBe('applied');
  });

  test('documents are approved or rejected with who, when and why', async () => {
    const created = await server.request(
      '/api/v2/entities/legal-entities',
      json(
        legalEntityPayload({
          supportingDocuments: [
            {
              fileName: 'incorporation.pdf',
              type: 'Certificate of Incorporation',
              file: testPdf('Certificate of incorporation').toString('base64'),
            },
          ],
        }),
      ),
    );
    const entity = legalEntityResponseSchema.parse(created.body).data;
    const documentId = entity.supportingDocuments?.[0]?.documentId ?? '';
    const documentPath = `/api/v2/documents/${documentId}`;

    const noReason = await server.request(documentPath, json({ documentApproved: false }, 'PATCH'));
    expect(noReason.status).toBe(400);
    expect(errorEnvelopeSchema.parse(noReason.body).errors?.[0]?.field).toBe('reason');
    const notBoolean = await server.request(
      documentPath,
      json({ documentApproved: 'yes' }, 'PATCH'),
    );
    expect(notBoolean.status).toBe(400);

    const rejected = await server.request(
      documentPath,
      json({ documentApproved: false, reason: ' Scan is unreadable. ' }, 'PATCH'),
    );
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      data: {
        documentId,
        documentApproved: false,
        decision: {
          approved: false,
          by: server.account.username,
          at: now().toISOString(),
          reason: 'Scan is unreadable.',
        },
      },
    });

    const approved = await server.request(documentPath, json({ documentApproved: true }, 'PATCH'));
    expect(approved.status).toBe(200);
    const list = documentListResponseSchema.parse(
      (await server.request(`/api/v2/entities/${entity.id}/documents`)).body,
    ).data;
    expect(list[0]).toMatchObject({
      documentApproved: true,
      decision: { approved: true, by: server.account.username, reason: null },
    });
    const detail = documentDetailResponseSchema.parse((await server.request(documentPath)).body);
    expect(detail.data.documentApproved).toBe(true);
    expect(
      (await legalEntityOf(server, entity.id)).supportingDocuments?.[0]?.documentApproved,
    ).toBe(true);
    const record = await server.app.services.db
      .selectFrom('entity_list_records')
      .select('documents')
      .where('entity_id', '=', entity.id)
      .executeTakeFirst();
    expect(record?.documents).toContain('"documentApproved":true');

    expect(
      (
        await server.request(
          '/api/v2/documents/no-such-document',
          json({ documentApproved: true }, 'PATCH'),
        )
      ).status,
    ).toBe(404);
  });
});

describe('an outcome and the newest verification (decisions.md: the newest decides)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ now, env: { FOUR_EYES: 'off' } });
  });
  afterAll(() => server.close());

  async function record(id: string, overrides: Partial<RecordVerificationInput>) {
    const response = await server.request(verificationsPath(id), json(outcome(overrides)));
    expect(response.status, response.text).toBe(201);
    return recordedVerificationResponseSchema.parse(response.body).data;
  }

  test('an outcome dated before the newest is kept but changes neither status nor next review', async () => {
    const id = await overdueEntity(server, 'Low');
    await record(id, {
      verificationStatus: 'Accepted',
      verificationDate: '2026-06-01',
      nextReviewDate: '2027-06-01',
    });
    const older = await record(id, {
      verificationStatus: 'Rejected',
      verificationDate: '2026-05-01',
      nextReviewDate: '2026-06-02',
    });
    expect(older).toMatchObject({
      state: 'applied',
      kycStatus: 'Accepted',
      nextKYCReview: '2027-06-01',
      verification: { verificationStatus: 'Rejected', verificationDate: '2026-05-01' },
    });
    const entity = await legalEntityOf(server, id);
    expect(entity.kycMetaData).toMatchObject({
      kycStatus: 'Accepted',
      nextKYCReview: '2027-06-01',
    });
    expect(entity.corporateVerifications).toHaveLength(2);

    // On the same date, the one recorded later is the newer.
    const sameDay = await record(id, {
      verificationStatus: 'Escalated',
      verificationDate: '2026-06-01',
      nextReviewDate: '2026-09-01',
    });
    expect(sameDay).toMatchObject({ kycStatus: 'Escalated', nextKYCReview: '2026-09-01' });
  });

  test('refuses an outcome dated after today (the server clock, UTC) on verificationDate', async () => {
    const id = await overdueEntity(server, 'Low');
    const response = await server.request(
      verificationsPath(id),
      json(outcome({ verificationDate: '2026-06-16', nextReviewDate: '2027-06-16' })),
    );
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).errors).toEqual([
      {
        field: 'verificationDate',
        message: 'The verification date cannot be after today (2026-06-15, UTC).',
      },
    ]);
    const today = await server.request(verificationsPath(id), json(outcome()));
    expect(today.status).toBe(201);
  });

  test('after any sequence of outcomes the entity shows the newest verification', async () => {
    const outcomeArbitrary = fc.record({
      verificationStatus: fc.constantFrom(...KYC_STATUSES),
      verificationDate: fc.constantFrom('2025-01-15', '2026-03-01', '2026-06-15'),
      nextReviewDate: fc.constantFrom('2026-06-16', '2027-01-01', '2028-06-15'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(outcomeArbitrary, { minLength: 1, maxLength: 4 }), async (list) => {
        const id = await overdueEntity(server, 'Low');
        for (const item of list) await record(id, item);
        const entity = await legalEntityOf(server, id);
        const expected = currentVerificationOf(list);
        expect(entity.kycMetaData?.kycStatus).toBe(expected?.kycStatus);
        expect(entity.kycMetaData?.nextKYCReview).toBe(expected?.nextKYCReview);
        expect(currentVerificationOf(entity.corporateVerifications ?? [])).toEqual(expected);
      }),
      { numRuns: 15, seed: 2806 },
    );
  });
});

describe('FOUR_EYES=off and FOUR_EYES=all', () => {
  test('off: an Accepted outcome for a High-risk entity applies at once', async () => {
    const server = await startTestServer({ now, env: { FOUR_EYES: 'off' } });
    try {
      const id = await overdueEntity(server, 'High');
      const { body } = await server.request(
        verificationsPath(id),
        json(outcome({ verificationStatus: 'Accepted' })),
      );
      expect(recordedVerificationResponseSchema.parse(body).data.state).toBe('applied');
      expect((await legalEntityOf(server, id)).kycMetaData?.kycStatus).toBe('Accepted');
    } finally {
      await server.close();
    }
  });

  test('all: every Accepted outcome waits, whatever the risk; other outcomes apply', async () => {
    const server = await startTestServer({ now, env: { FOUR_EYES: 'all' } });
    try {
      const id = await overdueEntity(server, 'Low');
      const { body } = await server.request(
        verificationsPath(id),
        json(outcome({ verificationStatus: 'Accepted' })),
      );
      expect(recordedVerificationResponseSchema.parse(body).data).toMatchObject({
        state: 'pending',
        pending: { rule: 'all' },
      });
      const other = await overdueEntity(server, 'Low');
      const review = await server.request(verificationsPath(other), json(outcome()));
      expect(recordedVerificationResponseSchema.parse(review.body).data.state).toBe('applied');
    } finally {
      await server.close();
    }
  });

  test('a FOUR_EYES value other than high, all or off stops the start with a sentence naming it', () => {
    expect(() => loadConfig({ FOUR_EYES: 'sometimes' })).toThrow(
      /FOUR_EYES must be high, all or off/,
    );
  });
});

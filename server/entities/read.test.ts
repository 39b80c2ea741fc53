import crypto from 'node:crypto';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
  type LegalEntity,
} from '../../contract/entities.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { testPdf } from '../testing/document-files.ts';

let server: TestServer;
let created: LegalEntity;
let contactId: string;

beforeAll(async () => {
  // 2026-06-15 12:00:00 UTC, so which review dates lie in the future is fixed.
  server = await startTestServer({ now: () => new Date(Date.UTC(2026, 5, 15, 12)) });
  const payload = legalEntityPayload({
    externalID: 'CRM-42',
    corporateVerifications: [
      {
        legalEntityVerification: true,
        verificationStatus: 'Accepted',
        verificationDate: '2024-01-10',
        verificationSource: 'Manual Entry',
        nextReviewDate: '2026-12-01',
      },
      {
        legalEntityVerification: false,
        verificationStatus: 'Review',
        verificationDate: '2025-02-20',
        verificationSource: 'Registry',
        businessStatement: 'Ownership changed.',
        nextReviewDate: '2026-01-01',
        verificationIssues: ['Director not verified'],
      },
      {
        legalEntityVerification: true,
        verificationStatus: 'Pending',
        verificationDate: '2023-05-05',
        verificationSource: 'Registry',
        nextReviewDate: '2027-03-01',
      },
    ],
    supportingDocuments: [
      {
        fileName: 'certificate.pdf',
        type: 'Certificate of Incorporation',
        description: 'Companies House certificate',
        file: testPdf('Certificate of incorporation').toString('base64'),
      },
    ],
  });
  const response = await postLegalEntity(server, payload);
  expect(response.status, response.text).toBe(201);
  created = legalEntityResponseSchema.parse(response.body).data;
  contactId = created.linkedEntities?.[0]?.entityID ?? '';
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/v2/entities/legal-entities/:id', () => {
  it('returns the legal entity with verifications, documents, links and kycMetaData', async () => {
    const response = await server.request(`/api/v2/entities/legal-entities/${created.id}`);
    expect(response.status).toBe(200);
    const entity = legalEntityResponseSchema.parse(response.body).data;
    expect(entity).toEqual(created);
    expect(entity.linkedEntities).toEqual([
      { relationship: 'Primary Contact', entityID: contactId },
    ]);
    expect(entity.corporateVerifications?.map((v) => v.verificationDate)).toEqual([
      '2023-05-05',
      '2024-01-10',
      '2025-02-20',
    ]);
    expect(entity.corporateVerifications?.[2]).toMatchObject({
      legalEntityVerification: false,
      verificationStatus: 'Review',
      businessStatement: 'Ownership changed.',
      verificationIssues: ['Director not verified'],
    });
    expect(entity.supportingDocuments).toEqual([
      expect.objectContaining({
        fileName: 'certificate.pdf',
        type: 'Certificate of Incorporation',
        description: 'Companies House certificate',
        dateReceived: '2026-06-15 12:00:00',
        documentApproved: false,
        mimeType: 'application/pdf',
      }),
    ]);
    // kycStatus and the next review follow the newest verification, even when its date has passed.
    expect(entity.kycMetaData).toEqual({
      externalID: 'CRM-42',
      kycStatus: 'Review',
      riskLevel: 'Medium',
      createdDateTime: '2026-06-15T12:00:00.000Z',
      lastUpdate: '2026-06-15T12:00:00.000Z',
      nextKYCReview: '2026-01-01',
      tags: [],
    });
  });

  it('answers 404 naming an unknown id', async () => {
    const unknown = crypto.randomUUID();
    const response = await server.request(`/api/v2/entities/legal-entities/${unknown}`);
    expect(response.status).toBe(404);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain(unknown);
  });

  it('answers 404 for the id of a natural person', async () => {
    const response = await server.request(`/api/v2/entities/legal-entities/${contactId}`);
    expect(response.status).toBe(404);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain(contactId);
  });
});

describe('GET /api/v2/entities/natural-persons/:id', () => {
  it('returns the primary contact with the legal entity it is tied to', async () => {
    const response = await server.request(`/api/v2/entities/natural-persons/${contactId}`);
    expect(response.status).toBe(200);
    const person = naturalPersonResponseSchema.parse(response.body).data;
    expect(person).toEqual({
      id: contactId,
      type: 'Natural Person',
      kycMetaData: {
        externalID: null,
        kycStatus: 'New',
        riskLevel: 'Medium',
        createdDateTime: '2026-06-15T12:00:00.000Z',
        lastUpdate: '2026-06-15T12:00:00.000Z',
        nextKYCReview: null,
        tags: [],
      },
      personalInformation: {
        firstName: 'Ada',
        middleName: null,
        lastName: 'Lovelace',
        dateOfBirth: null,
        email: expect.stringMatching(/^ada\..+@example\.com$/) as string,
        phone: '+44 20 7946 0000',
        address: null,
        city: null,
        stateProvince: null,
        countryCode: null,
        postalCode: null,
        linkedEntities: [{ relationship: 'Primary Contact', entityID: created.id }],
      },
      supportingDocuments: [],
    });
  });

  it('answers 404 for an unknown id and for the id of a legal entity', async () => {
    for (const id of [crypto.randomUUID(), created.id]) {
      const response = await server.request(`/api/v2/entities/natural-persons/${id}`);
      expect(response.status).toBe(404);
      expect(errorEnvelopeSchema.parse(response.body).message).toContain(id);
    }
  });
});

describe('authentication on every entity and document endpoint', () => {
  const endpoints = () => [
    { path: '/api/v2/entities', schema: entityListResponseSchema },
    { path: '/api/v2/entities/legal-entities?companyName=acme', schema: searchResponseSchema },
    { path: `/api/v2/entities/legal-entities/${created.id}`, schema: legalEntityResponseSchema },
    { path: `/api/v2/entities/natural-persons/${contactId}`, schema: naturalPersonResponseSchema },
    { path: `/api/v2/entities/${created.id}/documents`, schema: documentListResponseSchema },
    {
      path: `/api/v2/documents/${created.supportingDocuments?.[0]?.documentId ?? ''}`,
      schema: documentDetailResponseSchema,
    },
  ];

  it.each(['apiKey', 'token'] as const)('accepts %s on every read endpoint', async (auth) => {
    for (const { path, schema } of endpoints()) {
      const response = await server.request(path, { auth });
      expect(response.status, path).toBe(200);
      schema.parse(response.body);
    }
  });

  it('answers 401 without credentials or with a wrong API key', async () => {
    for (const { path } of endpoints()) {
      const anonymous = await server.request(path, { auth: 'none' });
      expect(anonymous.status, path).toBe(401);
      errorEnvelopeSchema.parse(anonymous.body);
      const wrongKey = await server.request(path, {
        auth: 'none',
        headers: { 'X-API-Key': 'not-the-key' },
      });
      expect(wrongKey.status, path).toBe(401);
    }
  });

  it('creates with either credential and refuses an anonymous create', async () => {
    const byToken = await postLegalEntity(server, legalEntityPayload(), { auth: 'token' });
    expect(byToken.status).toBe(201);
    legalEntityResponseSchema.parse(byToken.body);
    const byKey = await postLegalEntity(server, legalEntityPayload(), { auth: 'apiKey' });
    expect(byKey.status).toBe(201);
    const payload = legalEntityPayload();
    const anonymous = await postLegalEntity(server, payload, { auth: 'none' });
    expect(anonymous.status).toBe(401);
    const found = await server.request(
      `/api/v2/entities/legal-entities?registrationNumber=${payload.corporateInformation.registrationNumber}`,
    );
    expect(searchResponseSchema.parse(found.body).data).toEqual([]);
  });
});

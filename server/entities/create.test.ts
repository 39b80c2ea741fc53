import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  documentDetailResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import { createAccount } from '../auth/accounts.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  testMode,
  type TestServer,
} from '../testing/harness.ts';
import { CREATE_BODY_LIMIT } from './routes.ts';
import {
  legalEntityPayload,
  payloadWithCorporateInformation,
  postLegalEntity,
  uniqueSuffix,
  validLei,
} from '../testing/test-payloads.ts';
import { randomPdfBytes, testPdf, testPng } from '../testing/document-files.ts';

const CREATE_PATH = '/api/v2/entities/legal-entities';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function entityCount(): Promise<number> {
  let count = 0;
  for (;;) {
    const response = await server.request(`/api/v2/entities?limit=100&start=${count}`);
    const page = entityListResponseSchema.parse(response.body).data;
    count += page.length;
    if (page.length < 100) return count;
  }
}

async function idsWithRegistration(registrationNumber: string): Promise<string[]> {
  const response = await server.request(
    `/api/v2/entities/legal-entities?registrationNumber=${encodeURIComponent(registrationNumber)}`,
  );
  return searchResponseSchema.parse(response.body).data;
}

describe('POST /api/v2/entities/legal-entities', () => {
  it('creates the legal entity, its verifications, documents and primary contact', async () => {
    const payload = legalEntityPayload({
      supportingDocuments: [
        {
          fileName: 'address.png',
          type: 'Proof of Address',
          description: 'Utility bill',
          file: testPng().toString('base64'),
        },
      ],
    });
    const before = await entityCount();
    const response = await postLegalEntity(server, payload);
    expect(response.status, response.text).toBe(201);
    const entity = legalEntityResponseSchema.parse(response.body).data;
    expect(response.body).toMatchObject({ code: 201, status: 'success', message: '' });
    expect(entity.corporateInformation).toEqual({
      ...payload.corporateInformation,
      companyPhone: '+44 (20) 7946-0958',
    });
    expect(entity.corporateVerifications).toEqual([
      { ...payload.corporateVerifications?.[0], id: expect.any(String) as string },
    ]);
    expect(entity.supportingDocuments).toEqual([
      expect.objectContaining({
        fileName: 'address.png',
        type: 'Proof of Address',
        description: 'Utility bill',
        documentApproved: false,
        mimeType: 'image/png',
        fileSize: testPng().length,
      }),
    ]);
    expect(entity.supportingDocuments?.[0]?.dateReceived).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
    expect(entity.kycMetaData?.createdDateTime).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
    );
    expect(await entityCount()).toBe(before + 2);

    const contactId = entity.linkedEntities?.[0]?.entityID ?? '';
    const contact = await server.request(`/api/v2/entities/natural-persons/${contactId}`);
    expect(naturalPersonResponseSchema.parse(contact.body).data.personalInformation).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: payload.primaryContact?.email,
      linkedEntities: [{ relationship: 'Primary Contact', entityID: entity.id }],
    });

    const fetched = await server.request(`/api/v2/entities/legal-entities/${entity.id}`);
    expect(legalEntityResponseSchema.parse(fetched.body).data).toEqual(entity);
  });

  it('creates a minimal legal entity with defaults', async () => {
    const response = await postLegalEntity(server, {
      corporateInformation: {
        companyName: 'Bare Ltd',
        registrationNumber: 'BARE-1',
        country: 'IE',
      },
    });
    expect(response.status, response.text).toBe(201);
    const entity = legalEntityResponseSchema.parse(response.body).data;
    expect(entity).toMatchObject({
      corporateInformation: {
        companyName: 'Bare Ltd',
        registrationNumber: 'BARE-1',
        country: 'IE',
        dateofIncorporation: null,
        duns: '',
        glei: '',
        companyPhone: null,
      },
      corporateVerifications: [],
      supportingDocuments: [],
      linkedEntities: [],
      kycMetaData: {
        externalID: null,
        kycStatus: 'New',
        riskLevel: 'Medium',
        nextKYCReview: null,
        tags: [],
      },
    });
  });

  // Check digits one off the right ones always fail ISO 7064 (00 passes where 97 is right).
  const brokenLei = (() => {
    const lei = validLei();
    const check = Number(lei.slice(18));
    return lei.slice(0, 18) + String(check === 98 ? check - 1 : check + 1).padStart(2, '0');
  })();

  it.each([
    ['corporateInformation.country', { country: 'XX' }],
    ['corporateInformation.country', { country: 'gb' }],
    ['corporateInformation.dateofIncorporation', { dateofIncorporation: '2023-02-30' }],
    ['corporateInformation.dateofIncorporation', { dateofIncorporation: '17/05/2010' }],
    ['corporateInformation.email', { email: 'not-an-email' }],
    ['corporateInformation.duns', { duns: '12345678' }],
    ['corporateInformation.duns', { duns: '1234567890' }],
    ['corporateInformation.glei', { glei: brokenLei }],
    ['corporateInformation.glei', { glei: 'SHORT' }],
    ['corporateInformation.companyName', { companyName: ' ' }],
    ['corporateInformation.registrationNumber', { registrationNumber: '' }],
    ['corporateInformation.registrationNumber', { registrationNumber: ' - ./ ' }],
  ])('rejects a bad %s with a field error', async (field, overrides) => {
    const before = await entityCount();
    const response = await postLegalEntity(server, payloadWithCorporateInformation(overrides));
    expect(response.status).toBe(400);
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body.errors?.map((error) => error.field)).toContain(field);
    expect(body.message).toContain(field);
    expect(await entityCount()).toBe(before);
  });

  it('rejects a bad primary-contact e-mail and a bad verification date', async () => {
    const payload = legalEntityPayload();
    if (payload.primaryContact) payload.primaryContact.email = 'ada@';
    const first = payload.corporateVerifications?.[0];
    if (first) first.nextReviewDate = '2025-13-01';
    const response = await postLegalEntity(server, payload);
    expect(response.status).toBe(400);
    const fields = errorEnvelopeSchema.parse(response.body).errors?.map((error) => error.field);
    expect(fields).toEqual(
      expect.arrayContaining(['primaryContact.email', 'corporateVerifications.0.nextReviewDate']),
    );
  });

  it.each([
    ['invalid base64', 'not base64!', 'not valid base64'],
    ['base64 of the wrong length', 'QUJD=', 'not valid base64'],
    ['an empty file', '', 'empty'],
  ])('rejects %s in supportingDocuments.N.file', async (_case, file, message) => {
    const payload = legalEntityPayload({
      supportingDocuments: [
        { fileName: 'ok.pdf', type: 'Other', file: testPdf().toString('base64') },
        { fileName: 'bad.txt', type: 'Other', file },
      ],
    });
    const response = await postLegalEntity(server, payload);
    expect(response.status).toBe(400);
    const errors = errorEnvelopeSchema.parse(response.body).errors ?? [];
    expect(errors).toEqual([
      { field: 'supportingDocuments.1.file', message: expect.stringContaining(message) as string },
    ]);
  });

  it.each([
    [
      'setup.exe',
      'a Windows executable',
      Buffer.from('MZ\x90\x00\x03 This program cannot be run in DOS mode', 'latin1'),
    ],
    [
      'setup.pdf',
      'a Windows executable',
      Buffer.from('MZ\x90\x00\x03 This program cannot be run in DOS mode', 'latin1'),
    ],
    ['tool.pdf', 'a Linux executable (ELF)', Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1')],
    ['bundle.pdf', 'a ZIP archive', Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1')],
    ['note.txt', 'a plain text file', Buffer.from('Hello, this is a note.\n')],
    ['page.pdf', 'an HTML page', Buffer.from('<!doctype html><script>alert(1)</script>')],
    [
      'logo.png',
      'an SVG image',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>'),
    ],
  ])(
    'refuses %s, whose bytes are %s, on its own field and stores nothing',
    async (fileName, what, bytes) => {
      const before = await entityCount();
      const response = await postLegalEntity(
        server,
        legalEntityPayload({
          supportingDocuments: [
            { fileName: 'ok.pdf', type: 'Other', file: testPdf().toString('base64') },
            {
              fileName,
              type: 'Other',
              mimeType: 'application/pdf',
              file: bytes.toString('base64'),
            },
          ],
        }),
      );
      expect(response.status, response.text).toBe(400);
      expect(errorEnvelopeSchema.parse(response.body).errors).toEqual([
        {
          field: 'supportingDocuments.1.file',
          message: `This file is ${what}, not a document: upload a PDF, JPEG, PNG, TIFF, WebP or HEIC file.`,
        },
      ]);
      expect(await entityCount()).toBe(before);
    },
  );

  it('rejects an 11 MB file and accepts one of exactly 10 MB', async () => {
    const tooLarge = legalEntityPayload({
      supportingDocuments: [
        {
          fileName: 'big.pdf',
          type: 'Other',
          file: randomPdfBytes(11 * 1024 * 1024).toString('base64'),
        },
      ],
    });
    const rejected = await postLegalEntity(server, tooLarge);
    expect(rejected.status).toBe(400);
    expect(errorEnvelopeSchema.parse(rejected.body).errors).toEqual([
      { field: 'supportingDocuments.0.file', message: 'The file is larger than 10 MB.' },
    ]);

    const largest = legalEntityPayload({
      supportingDocuments: [
        {
          fileName: 'ten.pdf',
          type: 'Other',
          file: randomPdfBytes(10 * 1024 * 1024).toString('base64'),
        },
      ],
    });
    const accepted = await postLegalEntity(server, largest);
    expect(accepted.status).toBe(201);
    const document = legalEntityResponseSchema.parse(accepted.body).data.supportingDocuments?.[0];
    expect(document).toMatchObject({
      fileSize: 10 * 1024 * 1024,
      mimeType: 'application/pdf',
    });
  });

  it('rejects a body that is not JSON, or JSON that is not an object', async () => {
    const malformed = await server.request(CREATE_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"corporateInformation":',
    });
    expect(malformed.status).toBe(400);
    errorEnvelopeSchema.parse(malformed.body);
    const array = await postLegalEntity(server, []);
    expect(array.status).toBe(400);
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'companyName=Acme'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('answers 415 to Content-Type %s', async (contentType, body) => {
    const response = await server.request(CREATE_PATH, {
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body,
    });
    expect(response.status).toBe(415);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain('application/json');
  });

  it('answers 415 to a POST without a Content-Type', async () => {
    const response = await server.request(CREATE_PATH, { method: 'POST' });
    expect(response.status).toBe(415);
  });

  it(`answers 413 to a body over ${CREATE_BODY_LIMIT / 1024 / 1024} MB`, async () => {
    const url = new URL(CREATE_PATH, server.baseUrl);
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const request = http.request(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(CREATE_BODY_LIMIT + 1),
            'X-API-Key': server.account.apiKey,
          },
        });
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body: text });
            request.destroy();
          });
        });
        request.on('error', reject);
        // The server refuses on the declared length alone; it never needs the rest.
        request.write('{"corporateInformation":');
      },
    );
    expect(status).toBe(413);
    expect(errorEnvelopeSchema.parse(JSON.parse(body))).toMatchObject({ code: 413 });
  });

  it('accepts a body above the default 1 MB limit', async () => {
    const payload = legalEntityPayload({
      supportingDocuments: [
        {
          fileName: 'scan.pdf',
          type: 'Other',
          file: randomPdfBytes(3 * 1024 * 1024).toString('base64'),
        },
      ],
    });
    expect((await postLegalEntity(server, payload)).status).toBe(201);
  });

  it('answers 409 naming the existing entity for the same registration number and country', async () => {
    const payload = legalEntityPayload();
    const first = await postLegalEntity(server, payload);
    const existingId = legalEntityResponseSchema.parse(first.body).data.id;
    const before = await entityCount();

    const duplicate = legalEntityPayload({
      corporateInformation: {
        registrationNumber: payload.corporateInformation.registrationNumber.toLowerCase(),
        country: 'GB',
      },
    });
    const response = await postLegalEntity(server, duplicate);
    expect(response.status).toBe(409);
    const envelope = errorEnvelopeSchema.parse(response.body);
    expect(envelope.message).toContain(existingId);
    // The console places this on the field and links to the existing entity by its name.
    expect(envelope.errors).toEqual([
      {
        field: 'corporateInformation.registrationNumber',
        message: 'A legal entity with this registration number in GB already exists.',
      },
    ]);
    expect(envelope.data).toEqual([
      { entityId: existingId, companyName: payload.corporateInformation.companyName },
    ]);
    expect(await entityCount()).toBe(before);

    const elsewhere = legalEntityPayload({
      corporateInformation: {
        registrationNumber: payload.corporateInformation.registrationNumber,
        country: 'FR',
      },
    });
    expect((await postLegalEntity(server, elsewhere)).status).toBe(201);
  });

  it('takes registration numbers that differ in spaces, dashes, dots, slashes or case as one', async () => {
    const suffix = uniqueSuffix();
    const payload = legalEntityPayload({
      corporateInformation: { registrationNumber: `ABC-${suffix}-Straße`, country: 'DE' },
    });
    const first = await postLegalEntity(server, payload);
    expect(first.status, first.text).toBe(201);
    const existingId = legalEntityResponseSchema.parse(first.body).data.id;
    const before = await entityCount();

    for (const registrationNumber of [
      `ABC ${suffix} Straße`,
      `ABC${suffix}Straße`,
      `abc.${suffix.toLowerCase()}/STRASSE`,
      `ABC\u2013${suffix} \u00A0 Straße`,
    ]) {
      const response = await postLegalEntity(
        server,
        legalEntityPayload({ corporateInformation: { registrationNumber, country: 'DE' } }),
      );
      expect(response.status, registrationNumber).toBe(409);
      const message = errorEnvelopeSchema.parse(response.body).message;
      expect(message).toContain(existingId);
      expect(message).toContain(`stored as ABC-${suffix}-Straße`);
    }
    expect(await entityCount()).toBe(before);

    // The number is kept as entered, and search finds it by any spelling.
    expect(
      legalEntityResponseSchema.parse(first.body).data.corporateInformation.registrationNumber,
    ).toBe(`ABC-${suffix}-Straße`);
    expect(await idsWithRegistration(`abc${suffix}strasse`.toLowerCase())).toEqual([existingId]);
    expect(await idsWithRegistration(`ABC / ${suffix} . STRASSE`)).toEqual([existingId]);
    expect(await idsWithRegistration(`ABC-${suffix}-Strase`)).toEqual([]);

    const elsewhere = legalEntityPayload({
      corporateInformation: { registrationNumber: `ABC ${suffix} Straße`, country: 'AT' },
    });
    expect((await postLegalEntity(server, elsewhere)).status).toBe(201);
  });

  it('answers 409 for ABC x after ABC-x, and search abcx finds ABC-x', async () => {
    const suffix = uniqueSuffix();
    const first = await postLegalEntity(
      server,
      legalEntityPayload({ corporateInformation: { registrationNumber: `ABC-x${suffix}` } }),
    );
    expect(first.status, first.text).toBe(201);
    const id = legalEntityResponseSchema.parse(first.body).data.id;
    const second = await postLegalEntity(
      server,
      legalEntityPayload({ corporateInformation: { registrationNumber: `ABC x${suffix}` } }),
    );
    expect(second.status, second.text).toBe(409);
    expect(await idsWithRegistration(`abcx${suffix.toLowerCase()}`)).toEqual([id]);
  });
});

describe('Idempotency-Key', () => {
  it('returns the first response to a retry and creates nothing more', async () => {
    const payload = legalEntityPayload();
    const headers = { 'Idempotency-Key': `create-${crypto.randomUUID()}` };
    const before = await entityCount();
    const first = await postLegalEntity(server, payload, { headers });
    expect(first.status).toBe(201);
    const retry = await postLegalEntity(server, payload, { headers });
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    legalEntityResponseSchema.parse(retry.body);
    expect(await entityCount()).toBe(before + 2);
    expect(await idsWithRegistration(payload.corporateInformation.registrationNumber)).toHaveLength(
      1,
    );

    const sameKeyByToken = await postLegalEntity(server, payload, { headers, auth: 'token' });
    expect(sameKeyByToken.text).toBe(first.text);
  });

  it('answers 422 to the same key with a different body and creates nothing', async () => {
    const headers = { 'Idempotency-Key': `create-${crypto.randomUUID()}` };
    expect((await postLegalEntity(server, legalEntityPayload(), { headers })).status).toBe(201);
    const other = legalEntityPayload();
    const response = await postLegalEntity(server, other, { headers });
    expect(response.status).toBe(422);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain('Idempotency-Key');
    expect(await idsWithRegistration(other.corporateInformation.registrationNumber)).toEqual([]);
  });

  // Through a gateway every caller uses the gateway's one upstream account, so there is no other.
  it.skipIf(testMode === 'gateway')('keeps keys per account', async () => {
    const key = `shared-${crypto.randomUUID()}`;
    const mine = await postLegalEntity(server, legalEntityPayload(), {
      headers: { 'Idempotency-Key': key },
    });
    expect(mine.status).toBe(201);
    const colleague = await createAccount(
      server.app.services.db,
      `colleague-${crypto.randomUUID().slice(0, 8)}`,
    );
    const theirs = await postLegalEntity(server, legalEntityPayload(), {
      auth: 'none',
      headers: { 'Idempotency-Key': key, 'X-API-Key': colleague.apiKey },
    });
    expect(theirs.status).toBe(201);
    expect(legalEntityResponseSchema.parse(theirs.body).data.id).not.toBe(
      legalEntityResponseSchema.parse(mine.body).data.id,
    );
  });

  it('does not store failed requests under the key', async () => {
    const headers = { 'Idempotency-Key': `fix-${crypto.randomUUID()}` };
    const payload = legalEntityPayload();
    const invalid = {
      ...payload,
      corporateInformation: { ...payload.corporateInformation, country: 'XX' },
    };
    expect((await postLegalEntity(server, invalid, { headers })).status).toBe(400);
    expect((await postLegalEntity(server, payload, { headers })).status).toBe(201);
  });

  it('rejects a key longer than 200 characters', async () => {
    const payload = legalEntityPayload();
    const response = await postLegalEntity(server, payload, {
      headers: { 'Idempotency-Key': 'k'.repeat(201) },
    });
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).errors?.[0]?.field).toBe('Idempotency-Key');
    expect(await idsWithRegistration(payload.corporateInformation.registrationNumber)).toEqual([]);
    const longest = await postLegalEntity(server, payload, {
      headers: { 'Idempotency-Key': 'k'.repeat(200) },
    });
    expect(longest.status).toBe(201);
  });
});

describe('persistence', () => {
  it('keeps entities and documents across a restart on the same data directory', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-restart-'));
    const databaseUrl = await newTestDatabaseUrl();
    try {
      const bytes = randomPdfBytes(4096);
      const first = await startTestServer({ dataDir, databaseUrl });
      const response = await postLegalEntity(
        first,
        legalEntityPayload({
          supportingDocuments: [
            { fileName: 'kept.pdf', type: 'Other', file: bytes.toString('base64') },
          ],
        }),
      );
      const created = legalEntityResponseSchema.parse(response.body).data;
      await first.close();

      const second = await startTestServer({ dataDir, databaseUrl });
      try {
        const fetched = await second.request(`/api/v2/entities/legal-entities/${created.id}`);
        expect(legalEntityResponseSchema.parse(fetched.body).data).toEqual(created);
        const documentId = created.supportingDocuments?.[0]?.documentId ?? '';
        const document = await second.request(`/api/v2/documents/${documentId}`);
        const detail = documentDetailResponseSchema.parse(document.body).data;
        expect(Buffer.from(detail.file, 'base64').equals(bytes)).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  });
});

import crypto from 'node:crypto';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  legalEntityResponseSchema,
  type DocumentInput,
  type LegalEntity,
} from '../../contract/entities.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Each file with the MIME type the server must record for it. */
const files: { input: Omit<DocumentInput, 'file'>; bytes: Buffer; mimeType: string }[] = [
  {
    input: { fileName: 'statement.pdf', type: 'Bank Statement', description: 'March' },
    bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(2000)]),
    mimeType: 'application/pdf',
  },
  {
    input: { fileName: 'passport.jpg', type: 'Proof of Identity' },
    bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(500)]),
    mimeType: 'image/jpeg',
  },
  {
    input: { fileName: 'bill.data', type: 'Proof of Address' },
    bytes: Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), crypto.randomBytes(100)]),
    mimeType: 'image/tiff',
  },
  {
    input: { fileName: 'photo', type: 'Proof of Identity' },
    bytes: Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('WEBP'),
      crypto.randomBytes(64),
    ]),
    mimeType: 'image/webp',
  },
  {
    input: { fileName: 'selfie.HEIC', type: 'Proof of Identity' },
    bytes: Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypheic'),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('mif1heic'),
      crypto.randomBytes(64),
    ]),
    mimeType: 'image/heic',
  },
  {
    // The bytes decide, not the name nor the declared type.
    input: { fileName: 'declared.bin', type: 'Other', mimeType: 'Application/X-Custom+JSON' },
    bytes: Buffer.from('%PDF-but declared otherwise'),
    mimeType: 'application/pdf',
  },
  {
    input: { fileName: 'scan.png', type: 'Certificate of Incorporation' },
    bytes: Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      crypto.randomBytes(5 * 1024 * 1024),
    ]),
    mimeType: 'image/png',
  },
  {
    // One byte past the streamed envelope's first base64 chunk; a description JSON must escape.
    input: {
      fileName: 'escaped "name" ü.pdf',
      type: 'Other',
      description: 'Quote " backslash \\ line\nbreak \u2028 ✓',
    },
    bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(3 * 64 * 1024 - 8)]),
    mimeType: 'application/pdf',
  },
];

let server: TestServer;
let entity: LegalEntity;

beforeAll(async () => {
  server = await startTestServer();
  const response = await postLegalEntity(
    server,
    legalEntityPayload({
      supportingDocuments: files.map(({ input, bytes }) => ({
        ...input,
        file: bytes.toString('base64'),
      })),
    }),
  );
  expect(response.status, response.text).toBe(201);
  entity = legalEntityResponseSchema.parse(response.body).data;
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/v2/entities/:id/documents', () => {
  it('lists the metadata of every document, oldest first, without the bytes', async () => {
    const response = await server.request(`/api/v2/entities/${entity.id}/documents`);
    expect(response.status).toBe(200);
    const documents = documentListResponseSchema.parse(response.body).data;
    expect(documents).toEqual(entity.supportingDocuments);
    expect(documents).toHaveLength(files.length);
    const order = documents.map((d) => `${d.dateReceived} ${d.documentId}`);
    expect(order).toEqual([...order].sort());
    for (const { input, bytes, mimeType } of files) {
      const document = documents.find((d) => d.fileName === input.fileName);
      expect(document).toEqual({
        documentId: expect.any(String) as string,
        fileName: input.fileName,
        type: input.type,
        description: input.description ?? null,
        dateReceived: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) as string,
        documentApproved: false,
        mimeType,
        fileSize: bytes.length,
      });
    }
  });

  it('lists no documents for the primary contact', async () => {
    const contactId = entity.linkedEntities?.[0]?.entityID ?? '';
    const response = await server.request(`/api/v2/entities/${contactId}/documents`);
    expect(documentListResponseSchema.parse(response.body).data).toEqual([]);
  });

  it('answers 404 naming an unknown entity', async () => {
    const unknown = crypto.randomUUID();
    const response = await server.request(`/api/v2/entities/${unknown}/documents`);
    expect(response.status).toBe(404);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain(unknown);
  });
});

describe('GET /api/v2/documents/:id', () => {
  it('returns every document byte for byte in base64', async () => {
    for (const { input, bytes, mimeType } of files) {
      const metadata = entity.supportingDocuments?.find((d) => d.fileName === input.fileName);
      const response = await server.request(`/api/v2/documents/${metadata?.documentId ?? ''}`);
      expect(response.status).toBe(200);
      const detail = documentDetailResponseSchema.parse(response.body).data;
      const { file, ...rest } = detail;
      expect(rest).toEqual(metadata);
      expect(detail.mimeType).toBe(mimeType);
      const decoded = Buffer.from(file, 'base64');
      expect(decoded.length).toBe(bytes.length);
      expect(sha256(decoded)).toBe(sha256(bytes));
    }
  });

  it('sends exactly the bytes of JSON.stringify of the envelope, with a matching Content-Length', async () => {
    for (const { input, bytes } of files) {
      const metadata = entity.supportingDocuments?.find((d) => d.fileName === input.fileName);
      if (!metadata) throw new Error(`${input.fileName} was not created`);
      const response = await server.request(`/api/v2/documents/${metadata.documentId}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.text).toBe(
        JSON.stringify({
          code: 200,
          status: 'success',
          message: '',
          data: { ...metadata, file: bytes.toString('base64') },
        }),
      );
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(response.text));
      documentDetailResponseSchema.parse(response.body);
    }
  });

  it('answers 404 naming an unknown document', async () => {
    const unknown = crypto.randomUUID();
    const response = await server.request(`/api/v2/documents/${unknown}`);
    expect(response.status).toBe(404);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain(unknown);
  });

  it('answers 404 for an entity id used as a document id', async () => {
    const response = await server.request(`/api/v2/documents/${entity.id}`);
    expect(response.status).toBe(404);
  });
});

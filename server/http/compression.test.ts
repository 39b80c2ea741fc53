import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { entityListResponseSchema, legalEntityResponseSchema } from '../../contract/entities.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they crossed the wire (fetch would decode them). */
  bytes: Buffer;
}

function rawGet(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            bytes: Buffer.concat(chunks),
          });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function decoded(response: RawResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.bytes).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.bytes).toString('utf8');
  return response.bytes.toString('utf8');
}

// Both modes here: this file is not in the server-gateway project's list.
describe.each(['embedded', 'gateway'] as const)('compressed API answers (%s)', (mode) => {
  let server: TestServer;
  let auth: Record<string, string>;
  let documentId: string;
  beforeAll(async () => {
    server = await startTestServer({ mode });
    // Each legal entity comes with two linked persons: 34 of them give more than 100 rows.
    for (let index = 0; index < 34; index += 1) await insertLegalEntity(server.app.services.db);
    const created = await postLegalEntity(
      server,
      legalEntityPayload({
        supportingDocuments: [
          {
            fileName: 'scan.pdf',
            type: 'Bank Statement',
            file: Buffer.concat([
              Buffer.from('%PDF-1.7\n'),
              crypto.randomBytes(64 * 1024),
            ]).toString('base64'),
          },
        ],
      }),
    );
    expect(created.status, created.text).toBe(201);
    const documents = legalEntityResponseSchema.parse(created.body).data.supportingDocuments ?? [];
    documentId = documents[0]?.documentId ?? '';
    auth = await server.authHeaders('apiKey');
  });
  afterAll(async () => {
    await server.close();
  });

  test('a 100-row list goes as brotli or gzip, as the client prefers, still not cached', async () => {
    const url = `${server.baseUrl}/api/v2/entities?limit=100`;
    const plain = await rawGet(url, { ...auth, 'Accept-Encoding': 'identity' });
    const sizes: Record<string, number> = { identity: plain.bytes.length };
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(entityListResponseSchema.parse(JSON.parse(decoded(plain))).data).toHaveLength(100);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
    ] as const) {
      const response = await rawGet(url, { ...auth, 'Accept-Encoding': accept });
      expect(response.status, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control'], accept).toBe('no-store');
      expect(response.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(response.bytes.length, accept).toBeLessThan(plain.bytes.length / 4);
      expect(JSON.parse(decoded(response)), accept).toEqual(JSON.parse(decoded(plain)));
      sizes[encoding] = response.bytes.length;
    }
    expect(sizes.br).toBeLessThanOrEqual(sizes.gzip ?? 0);
  });

  test('an answer below the threshold goes as it is', async () => {
    const response = await rawGet(`${server.baseUrl}/api/v2/entities?limit=1`, {
      ...auth,
      'Accept-Encoding': 'br, gzip',
    });
    expect(response.status).toBe(200);
    expect(response.bytes.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    const notFound = await rawGet(`${server.baseUrl}/api/v2/nothing-here`, {
      ...auth,
      'Accept-Encoding': 'br, gzip',
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['content-encoding']).toBeUndefined();
  });

  test('the API reference and the OpenAPI document are compressed', async () => {
    for (const pathname of ['/api/docs', '/api/openapi.json']) {
      const response = await rawGet(server.baseUrl + pathname, { 'Accept-Encoding': 'br, gzip' });
      expect(response.status, pathname).toBe(200);
      expect(response.headers['content-encoding'], pathname).toBe('br');
      expect(response.headers.vary, pathname).toMatch(/accept-encoding/i);
      expect(decoded(response).length, pathname).toBeGreaterThan(response.bytes.length * 3);
    }
  });

  test("a document's bytes go as they are, with their length", async () => {
    const response = await rawGet(`${server.baseUrl}/api/v2/documents/${documentId}`, {
      ...auth,
      'Accept-Encoding': 'br, gzip',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    if (server.mode === 'embedded') {
      expect(Number(response.headers['content-length'])).toBe(response.bytes.length);
    }
    expect(response.bytes.length).toBeGreaterThan(64 * 1024);
  });

  test('request bodies are not inflated: a gzip body is refused, not read', async () => {
    const response = await fetch(`${server.baseUrl}/api/v2/entities/legal-entities`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: zlib.gzipSync(JSON.stringify(legalEntityPayload())),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

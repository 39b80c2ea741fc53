import http from 'node:http';
import { Readable } from 'node:stream';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { createUpstreamClient } from '../gateway/upstream-client.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestMode, type TestServer } from '../testing/harness.ts';
import { startRecordingUpstream, type RecordingUpstream } from '../testing/recording-upstream.ts';
import { readWithinLimit } from './body-limit.ts';
import { ApiError } from './errors.ts';
import { ROUTE_BODY_LIMITS } from './limits.ts';

const CHUNK = Buffer.alloc(8 * 1024, 'a');

/** A source that yields `count` chunks, one per turn of the event loop, and records being read. */
function chunkedSource(count: number) {
  let produced = 0;
  const source = new Readable({
    read() {
      produced += 1;
      setImmediate(() => this.push(produced > count ? null : CHUNK));
    },
  });
  return { source, produced: () => produced };
}

/**
 * POSTs or GETs `chunks` chunks with Transfer-Encoding: chunked (no Content-Length, so only the
 * streaming limit can refuse it), one every few milliseconds, and resolves with the answer.
 */
function sendChunked(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: number,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, 'transfer-encoding': 'chunked' },
    });
    request.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown,
        });
      });
    });
    // The server may close its side once it has answered; the answer is what counts.
    request.on('error', (error) => {
      if (!request.writableEnded) reject(error);
    });
    let sent = 0;
    const next = () => {
      if (request.destroyed) return;
      if (sent === chunks) {
        request.end();
        return;
      }
      sent += 1;
      request.write(CHUNK);
      setTimeout(next, 2);
    };
    next();
  });
}

describe('readWithinLimit', () => {
  test('refuses a stream that crosses the limit mid-way, having read no more than the chunk that crossed it', async () => {
    const { source, produced } = chunkedSource(10);
    const tooLarge = new ApiError(413, 'The request body is too large.');
    await expect(readWithinLimit(source, 3 * CHUNK.length, () => tooLarge)).rejects.toBe(tooLarge);
    expect(produced()).toBeLessThanOrEqual(6);
    expect(source.destroyed).toBe(false);
  });

  test('returns every byte of a stream within the limit', async () => {
    const { source } = chunkedSource(3);
    const bytes = await readWithinLimit(source, 3 * CHUNK.length, () => new Error('too large'));
    expect(bytes.equals(Buffer.concat([CHUNK, CHUNK, CHUNK]))).toBe(true);
  });
});

describe('the upstream client streaming a body', () => {
  let upstream: RecordingUpstream;
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
  });
  afterAll(async () => {
    await upstream.stop();
  });

  test('a body that crosses bodyLimit mid-stream is 413 and never reaches the upstream whole', async () => {
    const client = createUpstreamClient({ url: upstream.url, timeoutMs: 5_000 });
    const before = upstream.requests.length;
    const { source } = chunkedSource(20);
    const sent = client.send({
      method: 'POST',
      path: '/api/v2/entities/legal-entities',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: source,
      bodyLimit: 4 * CHUNK.length,
    });
    await expect(sent).rejects.toMatchObject({ statusCode: 413 });
    expect(upstream.requests.length).toBe(before);
    client.close();
  });

  test('a body within bodyLimit arrives byte for byte', async () => {
    const client = createUpstreamClient({ url: upstream.url, timeoutMs: 5_000 });
    const { source } = chunkedSource(4);
    const response = await client.send({
      method: 'POST',
      path: '/api/v2/entities/legal-entities',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: source,
      bodyLimit: 4 * CHUNK.length,
    });
    response.body.resume();
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)?.body.length).toBe(4 * CHUNK.length);
    client.close();
  });
});

describe.each<TestMode>(['embedded', 'gateway'])('limits crossed mid-stream (%s)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server.close();
  });

  test('a chunked client-update GET body over its limit is 413, and the server serves on', async () => {
    const limit =
      ROUTE_BODY_LIMITS['/api/v2/entities/legal-entities/:id/request-client-update'] ?? 0;
    const { legalEntityId } = await insertLegalEntity(server.app.services.db);
    const response = await sendChunked(
      server.baseUrl,
      'GET',
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      { ...(await server.authHeaders('token')), 'content-type': 'application/json' },
      Math.ceil(limit / CHUNK.length) + 4,
    );
    expect(response.status).toBe(413);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(413);
    expect((await server.request('/healthz', { auth: 'none' })).status).toBe(200);
  });

  test('a chunked sign-in body over its limit is 413', async () => {
    const response = await sendChunked(
      server.baseUrl,
      'POST',
      '/api/gettoken',
      { 'content-type': 'application/x-www-form-urlencoded' },
      // Past the gateway's 64 KB sign-in limit and the embedded route's 16 KB one.
      12,
    );
    expect(response.status).toBe(413);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(413);
  });
});

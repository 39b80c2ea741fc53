import http from 'node:http';
import net from 'node:net';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { legalEntityResponseSchema } from '../../contract/entities.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import {
  MAX_HEADER_BYTES,
  MAX_JSON_DEPTH,
  ROUTE_BODY_LIMITS,
  isNestedDeeperThan,
} from '../http/limits.ts';
import { SECURITY_HEADERS } from '../http/security.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Sends `head` (and nothing more) on a raw socket and resolves with all the server wrote before closing. */
function rawExchange(baseUrl: string, head: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(head);
  });
}

/** node:http, because fetch cannot send a body with GET; a Bearer token works in both modes. */
async function requestWithBody(
  method: string,
  pathname: string,
  body: string,
): Promise<{ status: number; body: unknown }> {
  const authorization = `Bearer ${await server.token()}`;
  return new Promise((resolve, reject) => {
    const request = http.request(
      server.baseUrl + pathname,
      {
        method,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Authorization: authorization,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function parseRawResponse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as unknown };
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? { inner: value } : [value];
  return value;
}

describe('JSON depth', () => {
  test('the depth check counts objects and arrays, not scalars', () => {
    expect(isNestedDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(isNestedDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(isNestedDeeperThan('text', 0)).toBe(false);
    expect(isNestedDeeperThan(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });

  test('a create body nested deeper than the limit is 400 before validation, one at the limit reaches validation', async () => {
    const tooDeep = legalEntityPayload({ externalID: nested(MAX_JSON_DEPTH) as string });
    const atLimit = legalEntityPayload({ externalID: nested(MAX_JSON_DEPTH - 2) as string });
    const refused = await server.request('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(tooDeep),
    });
    expect(refused.status).toBe(400);
    expect(errorEnvelopeSchema.parse(refused.body).message).toBe(
      `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
    );
    const validated = await server.request('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(atLimit),
    });
    expect(validated.status).toBe(400);
    expect(errorEnvelopeSchema.parse(validated.body).errors?.map((error) => error.field)).toEqual([
      'externalID',
    ]);
  });

  test('a deeply nested client-update body is refused on GET and POST alike', async () => {
    const { legalEntityId } = await insertLegalEntity(server.app.services.db);
    const depth = 20_000;
    const body = `{"recepientId":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    for (const method of ['GET', 'POST']) {
      const response = await requestWithBody(
        method,
        `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
        body,
      );
      expect(response.status, method).toBe(400);
      expect(errorEnvelopeSchema.parse(response.body).message, method).toMatch(/nested deeper/);
    }
  });

  test('a million nested arrays in a create body are refused, and the server stays up', async () => {
    const depth = 1_000_000;
    const response = await server.request('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect(response.status).toBe(400);
    errorEnvelopeSchema.parse(response.body);
    expect((await server.request('/healthz', { auth: 'none' })).status).toBe(200);
  });

  test('a valid create still works under the depth check', async () => {
    const response = await server.request('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(legalEntityPayload()),
    });
    expect(response.status).toBe(201);
    legalEntityResponseSchema.parse(response.body);
  });
});

describe('body size per route', () => {
  const signInLimit = ROUTE_BODY_LIMITS['/api/gettoken'] ?? 0;

  test('sign-in takes a small body only, form-encoded or multipart', async () => {
    const password = 'p'.repeat(signInLimit);
    const form = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        Username: server.account.username,
        Password: password,
      }).toString(),
    });
    const multipartBody = new FormData();
    multipartBody.set('Username', server.account.username);
    multipartBody.set('Password', password);
    const multipart = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: multipartBody,
    });
    for (const response of [form, multipart]) {
      expect(response.status).toBe(413);
      expect(errorEnvelopeSchema.parse(response.body).code).toBe(413);
    }
    const normal = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        Username: server.account.username,
        Password: server.account.password,
      }).toString(),
    });
    expect(normal.status).toBe(200);
  });

  test('a client-update body over its limit is 413', async () => {
    const limit =
      ROUTE_BODY_LIMITS['/api/v2/entities/legal-entities/:id/request-client-update'] ?? 0;
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const response = await server.request(
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          recepientId: primaryContactId,
          emailSubject: 'Documents',
          emailMessage: 'x'.repeat(limit),
          configId: 1,
          domain: 'portal.example.com',
        }),
      },
    );
    expect(response.status).toBe(413);
    errorEnvelopeSchema.parse(response.body);
  });
});

describe('request head', () => {
  test(`a request head over ${MAX_HEADER_BYTES / 1024} KB is 431 with the envelope and the security headers`, async () => {
    const raw = await rawExchange(
      server.baseUrl,
      `GET /api/v2/entities HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`,
    );
    const response = parseRawResponse(raw);
    expect(response.status).toBe(431);
    expect(errorEnvelopeSchema.parse(response.body)).toMatchObject({ code: 431, status: 'error' });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(response.headers.get(name.toLowerCase()), name).toBe(value);
    }
  });

  test('a head that never ends is answered 408 and the connection closed', async () => {
    const raw = await rawExchange(server.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const response = parseRawResponse(raw);
    expect(response.status).toBe(408);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(408);
    const health = await server.request('/healthz', { auth: 'none' });
    expect(health.status).toBe(200);
  });

  test('garbage instead of HTTP is 400 with the envelope', async () => {
    const response = parseRawResponse(await rawExchange(server.baseUrl, 'HELLO\r\n\r\n'));
    expect(response.status).toBe(400);
    errorEnvelopeSchema.parse(response.body);
  });
});

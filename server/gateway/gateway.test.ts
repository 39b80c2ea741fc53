import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { createApp, type App } from '../app.ts';
import { loadConfig } from '../env.ts';
import {
  defaultHandler,
  GOOD_TOKEN,
  sendJson,
  startRecordingUpstream,
  type RecordedRequest,
  type RecordingUpstream,
  type UpstreamHandler,
} from '../testing/recording-upstream.ts';

const UPSTREAM_KEY = 'upstream-secret-key';
const KEY_HEADER = 'X-Service-Key';
// Short enough for the hanging-upstream test, long enough for a 20 MB answer on a busy machine.
const TIMEOUT_MS = 3_000;

const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

let upstream: RecordingUpstream;
let gateway: App;
let gatewayUrl: string;
let dataDir: string;
let clock = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-gateway-'));
  gateway = await createApp(
    {
      ...loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        KYC_UPSTREAM_URL: upstream.url,
        KYC_UPSTREAM_API_KEY: UPSTREAM_KEY,
        KYC_UPSTREAM_API_KEY_HEADER: KEY_HEADER,
        KYC_UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
      staticDir: undefined,
    },
    { logger: false, now: () => new Date(clock) },
  );
  gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await gateway.close();
  await upstream.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.handle(defaultHandler);
  // A fresh clock per test, far enough on that no earlier token confirmation still counts.
  clock += 3_600_000;
});

async function call(pathAndQuery: string, init: RequestInit = {}) {
  const response = await fetch(gatewayUrl + pathAndQuery, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the test reads `text`.
  }
  return { status: response.status, headers: response.headers, text, body };
}

const bearer = (token = GOOD_TOKEN) => ({ Authorization: `Bearer ${token}` });

/** node:http with the path exactly as given (fetch would normalise it or refuse a GET body). */
function rawCall(
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(gatewayUrl);
    const request = http.request(
      { host: url.hostname, port: url.port, method, path: pathAndQuery, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function errorOf(response: { body: unknown }) {
  return errorEnvelopeSchema.parse(response.body);
}

describe('credentials', () => {
  it('adds the API key itself and never forwards a client’s key or Bearer token to /api/v2', async () => {
    const response = await call('/api/v2/entities?limit=5', {
      headers: {
        ...bearer(),
        'X-API-Key': 'client-supplied-key',
        [KEY_HEADER]: 'client-forged-key',
        Cookie: 'session=abc',
      },
    });
    expect(response.status).toBe(200);
    const [forwarded, ...others] = upstream.entityRequests();
    expect(others).toEqual([]);
    expect(forwarded?.url).toBe('/api/v2/entities?limit=5');
    expect(forwarded?.headers['x-service-key']).toBe(UPSTREAM_KEY);
    expect(forwarded?.headers).not.toHaveProperty('x-api-key');
    expect(forwarded?.headers).not.toHaveProperty('authorization');
    expect(forwarded?.headers).not.toHaveProperty('cookie');

    const [check] = upstream.tokenChecks();
    expect(check?.headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
    expect(check?.headers).not.toHaveProperty('x-service-key');
    expect(check?.headers).not.toHaveProperty('x-api-key');
  });

  it('answers 401 without a Bearer token and never contacts the upstream, even with an API key', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'X-API-Key': UPSTREAM_KEY },
      { [KEY_HEADER]: UPSTREAM_KEY },
    ];
    for (const headers of attempts) {
      const response = await call('/api/v2/entities', { headers });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe(401);
    }
    expect(upstream.requests).toEqual([]);
  });

  it('confirms a token once and reuses the confirmation for 30 seconds', async () => {
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
    expect(upstream.tokenChecks()).toHaveLength(1);
    clock += 29_000;
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
    expect(upstream.tokenChecks()).toHaveLength(1);
    clock += 2_000;
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
    expect(upstream.tokenChecks()).toHaveLength(2);
    expect(upstream.entityRequests()).toHaveLength(4);
  });

  it('never caches a refused token and forwards nothing for it', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await call('/api/v2/entities', { headers: bearer('forged.token.value') });
      expect(response.status).toBe(401);
      expect(errorOf(response).message).toMatch(/token/i);
    }
    expect(upstream.tokenChecks()).toHaveLength(2);
    expect(upstream.entityRequests()).toEqual([]);
  });
});

describe('forwarding', () => {
  it('forwards POST request-client-update as GET with the same JSON body', async () => {
    const path = `/api/v2/entities/legal-entities/${crypto.randomUUID()}/request-client-update`;
    const body = JSON.stringify({
      recepientId: crypto.randomUUID(),
      emailSubject: 'Please update',
      emailMessage: 'Hello',
      configId: 1,
      domain: 'portal.kyc-desk.local',
    });
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      sendJson(response, 202, { code: 202, status: 'success', message: '', data: { ok: 1 } });
    });
    const response = await call(path, {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ code: 202, status: 'success', message: '', data: { ok: 1 } });
    // After the check that the identity service knows the legal entity.
    const [lookup, forwarded] = upstream.entityRequests();
    expect(lookup?.url).toBe(path.replace('/request-client-update', ''));
    expect(forwarded?.method).toBe('GET');
    expect(forwarded?.url).toBe(path);
    expect(forwarded?.headers['content-type']).toBe('application/json');
    expect(forwarded?.body.toString('utf8')).toBe(body);
  });

  it('forwards sign-in form fields unchanged and a bare {"token"} answer unchanged', async () => {
    const answer = '{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln"}';
    upstream.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(answer);
    });
    const form = new FormData();
    form.append('Username', 'alice');
    form.append('Password', 'pa ss&word=1');
    const response = await call('/api/gettoken', { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(response.text).toBe(answer);
    const [forwarded] = upstream.requests;
    expect(forwarded?.method).toBe('POST');
    expect(forwarded?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = forwarded?.body.toString('utf8') ?? '';
    expect(text).toContain('name="Username"\r\n\r\nalice\r\n');
    expect(text).toContain('name="Password"\r\n\r\npa ss&word=1\r\n');
  });

  it('forwards /api/tokenvalid with the caller’s token and passes the answer through', async () => {
    const valid = await call('/api/tokenvalid', { headers: bearer() });
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ isTokenValid: true });
    const invalid = await call('/api/tokenvalid', { headers: bearer('stale.token.value') });
    expect(invalid.status).toBe(401);
    expect(errorOf(invalid).message).toBe('The token is invalid.');
  });

  it('streams a 20 MB document through byte for byte', async () => {
    const file = crypto.randomBytes(20 * 1024 * 1024);
    const document = JSON.stringify({
      code: 200,
      status: 'success',
      message: '',
      data: { documentId: crypto.randomUUID(), fileName: 'big.bin', file: file.toString('base64') },
    });
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(document),
      });
      response.end(document);
    });
    const response = await fetch(`${gatewayUrl}/api/v2/documents/${crypto.randomUUID()}`, {
      headers: bearer(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(document)));
    const received = Buffer.from(await response.arrayBuffer());
    expect(received.length).toBe(Buffer.byteLength(document));
    expect(sha256(received)).toBe(sha256(document));
  });

  it('streams a large create body to the upstream unchanged', async () => {
    const body = JSON.stringify({ blob: crypto.randomBytes(3 * 1024 * 1024).toString('base64') });
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      sendJson(response, 201, { code: 201, status: 'success', message: '', data: {} });
    });
    const response = await call('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
      body,
    });
    expect(response.status).toBe(201);
    const [forwarded] = upstream.entityRequests();
    expect(forwarded?.headers['idempotency-key']).toBe('k-1');
    expect(sha256(forwarded?.body ?? Buffer.alloc(0))).toBe(sha256(body));
  });

  it('relays only allowed response headers', async () => {
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      response.writeHead(201, {
        'content-type': 'application/json',
        'idempotent-replayed': 'true',
        'set-cookie': 'upstream=1',
        'x-upstream-internal': 'secret',
      });
      response.end('{"code":201,"status":"success","message":"","data":{}}');
    });
    const response = await call('/api/v2/entities/legal-entities', {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-upstream-internal')).toBeNull();
  });

  it('refuses dot segments that could leave /api/v2, without contacting the upstream', async () => {
    for (const path of ['/api/v2/../admin', '/api/v2/%2e%2e/admin', '/api/v2/entities/./x']) {
      const response = await rawCall('GET', path, bearer());
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    expect(upstream.requests).toEqual([]);
  });
});

describe('upstream errors', () => {
  it('passes 4xx envelopes through with their status and message', async () => {
    const envelope = { code: 404, status: 'error', message: 'No legal entity x.', data: [] };
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      sendJson(response, 404, envelope);
    });
    const response = await call('/api/v2/entities/legal-entities/x', { headers: bearer() });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope);
  });

  it('wraps 4xx answers that are not the envelope, keeping status, message and Retry-After', async () => {
    const answers: [number, Record<string, string>, string, string][] = [
      [400, { 'content-type': 'application/json' }, '{"message":"bad duns"}', 'bad duns'],
      [409, { 'content-type': 'text/plain' }, 'Conflict', 'conflict'],
      [429, { 'content-type': 'text/html', 'retry-after': '7' }, '<h1>slow down</h1>', 'too many'],
    ];
    for (const [status, headers, text, message] of answers) {
      upstream.handle((request, response) => {
        if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
        response.writeHead(status, headers);
        response.end(text);
      });
      const response = await call('/api/v2/entities', { headers: bearer() });
      expect(response.status).toBe(status);
      const error = errorOf(response);
      expect(error.code).toBe(status);
      expect(error.message.toLowerCase()).toContain(message);
      if (status === 429) expect(response.headers.get('retry-after')).toBe('7');
    }
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
      // Never answers: the gateway's deadline must end the exchange.
    });
    const response = await call('/api/v2/entities', { headers: bearer() });
    expect(response.status).toBe(504);
    expect(errorOf(response).message).toBe('The identity service did not answer in time.');
  });

  it('ends its exchange with the identity service as soon as the client goes away', async () => {
    let clientGone = () => {};
    const upstreamClosed = new Promise<string>((resolve) => {
      upstream.handle((request, response) => {
        if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
        // Never answers: only the gateway can end this exchange, and its deadline is TIMEOUT_MS.
        response.on('close', () => resolve('closed'));
        clientGone();
      });
    });
    const url = new URL(gatewayUrl);
    const client = http.get({
      host: url.hostname,
      port: url.port,
      path: '/api/v2/entities',
      headers: bearer(),
    });
    client.on('error', () => {});
    clientGone = () => client.destroy();
    const beforeDeadline = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still open'), TIMEOUT_MS / 2),
    );
    expect(await Promise.race([upstreamClosed, beforeDeadline])).toBe('closed');
  });

  it('answers 502 to garbage, truncated and non-JSON answers, then works again', async () => {
    const misbehaviours: ((response: http.ServerResponse) => void)[] = [
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"code":200,"status":"succ');
      },
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('["an array", "not the envelope"]');
      },
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"code":200} and more');
      },
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        response.write('{"code":200,');
        setImmediate(() => response.socket?.destroy());
      },
      (response) => {
        response.writeHead(503, { 'content-type': 'text/html' });
        response.end('<html>Service Unavailable</html>');
      },
      (response) => {
        response.socket?.end('NOT HTTP AT ALL\r\n\r\n');
      },
    ];
    for (const [index, misbehave] of misbehaviours.entries()) {
      upstream.handle((request, response) => {
        if (request.url === '/api/tokenvalid') return defaultHandler(request, response);
        misbehave(response);
      });
      const response = await call('/api/v2/entities', { headers: bearer() });
      expect({ index, status: response.status }).toEqual({ index, status: 502 });
      expect(errorOf(response).message).toMatch(/^The identity service is unreachable/);
    }
    upstream.handle(defaultHandler);
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
  });

  it('answers 502 while the upstream is down and works again once it is back', async () => {
    await upstream.stop();
    try {
      const response = await call('/api/v2/entities', { headers: bearer() });
      expect(response.status).toBe(502);
      expect(errorOf(response).message).toMatch(/^The identity service is unreachable/);
      const signIn = await call('/api/gettoken', {
        method: 'POST',
        body: new URLSearchParams({ Username: 'a', Password: 'b' }),
      });
      expect(signIn.status).toBe(502);
      expect((await call('/healthz')).body).toMatchObject({ status: 'ok', mode: 'gateway' });
    } finally {
      await upstream.listen();
    }
    expect((await call('/api/v2/entities', { headers: bearer() })).status).toBe(200);
  });

  it('answers 502 when nothing listens at the configured address', async () => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const lonely = await createApp(
      {
        ...loadConfig({
          LOG_LEVEL: 'silent',
          KYC_UPSTREAM_URL: `http://127.0.0.1:${port}`,
          KYC_UPSTREAM_API_KEY: UPSTREAM_KEY,
        }),
        staticDir: undefined,
      },
      { logger: false },
    );
    try {
      const response = await lonely.inject({
        method: 'GET',
        url: '/api/tokenvalid',
        headers: bearer(),
      });
      expect(response.statusCode).toBe(502);
      expect(errorEnvelopeSchema.parse(response.json()).message).toMatch(/unreachable/);
    } finally {
      await lonely.close();
    }
  });
});

/** Lets the token check pass as usual and answers every other request with `handler`. */
function answerEntityCalls(handler: UpstreamHandler) {
  upstream.handle((request, response) =>
    request.url === '/api/tokenvalid'
      ? defaultHandler(request, response)
      : handler(request, response),
  );
}

/** One request written byte for byte on a socket: the request target exactly as given. */
async function socketCall(requestLine: string, headers: Record<string, string>) {
  const url = new URL(gatewayUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  const head = Object.entries({ Host: url.host, Connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`${requestLine}\r\n${head}\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown };
}

describe('request targets', () => {
  it('refuses encoded separators, double encoding, backslashes and `..;` without contacting the upstream', async () => {
    const escapes = [
      '/api/v2/..%2fadmin',
      '/api/v2/%2e%2e%2fadmin',
      '/api/v2/%252e%252e/admin',
      '/api/v2/..%5cadmin',
      '/api/v2/x/..;/..;/admin',
      // The same tricks where the allow-list takes a parameter.
      '/api/v2/documents/..%2fadmin',
      '/api/v2/documents/%2e%2e',
      '/api/v2/documents/%252e%252e%252fadmin',
      '/api/v2/documents/..%5cadmin',
      '/api/v2/documents/..;',
      '/api/v2/documents/x;jsessionid=1',
      '/api/v2/entities/..%2f..%2fadmin/documents',
      '/api/v2/entities/legal-entities/%00/request-client-update',
    ];
    for (const path of escapes) {
      const response = await rawCall('GET', path, bearer());
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(errorOf({ body: JSON.parse(response.text) }).code).toBe(404);
    }
    // Not valid percent-encoding at all: Fastify refuses it before any route runs.
    expect((await rawCall('GET', '/api/v2/documents/%E0%A4%A', bearer())).status).toBe(400);
    expect(upstream.requests).toEqual([]);
  });

  it('forwards nothing off the allow-list: unknown paths, other methods, trailing slashes', async () => {
    // Unknown paths are 404; other methods on a known path 405 (issue 32). Neither is forwarded.
    const refused: [string, string, number][] = [
      ['GET', '/api/v2/admin', 404],
      ['GET', '/api/v2/entities/', 404],
      ['GET', '/api/v2/documents', 404],
      ['HEAD', '/api/v2/admin', 404],
      ['DELETE', '/api/v2/entities/legal-entities/abc', 405],
      ['PUT', '/api/v2/entities/legal-entities', 405],
      ['POST', '/api/v2/documents/abc', 405],
    ];
    for (const [method, path, status] of refused) {
      const response = await rawCall(method, path, bearer());
      expect({ method, path, status: response.status }).toEqual({ method, path, status });
    }
    expect(upstream.requests).toEqual([]);
  });

  it('answers 400 to an absolute-form request target and forwards nothing', async () => {
    const targets = [
      'GET http://169.254.169.254/api/v2/entities HTTP/1.1',
      'GET http://169.254.169.254/api/tokenvalid HTTP/1.1',
      'POST http://169.254.169.254/api/gettoken HTTP/1.1',
    ];
    for (const requestLine of targets) {
      const response = await socketCall(requestLine, { ...bearer(), 'Content-Length': '0' });
      expect({ requestLine, status: response.status }).toEqual({ requestLine, status: 400 });
      expect(errorOf(response).message).toMatch(/request target must be a path/);
    }
    expect(upstream.requests).toEqual([]);
  });

  it('builds each forwarded path from the allow-list with encoded parameters and a rebuilt query', async () => {
    const id = 'ID 7:ü?#';
    const sent = encodeURIComponent(id).replaceAll('%3A', ':');
    const encoded = encodeURIComponent(id);
    const cases: [string, string, string][] = [
      [
        'GET',
        '/api/v2/entities?limit=5&type=legal-entities',
        '/api/v2/entities?limit=5&type=legal-entities',
      ],
      [
        'GET',
        '/api/v2/entities/legal-entities?companyName=a%20b&duns=1',
        '/api/v2/entities/legal-entities?companyName=a+b&duns=1',
      ],
      [
        'GET',
        '/api/v2/entities/natural-persons?lastName=O%27Neil&firstName=Ann',
        '/api/v2/entities/natural-persons?lastName=O%27Neil&firstName=Ann',
      ],
      ['POST', '/api/v2/entities/legal-entities', '/api/v2/entities/legal-entities'],
      [
        'GET',
        `/api/v2/entities/legal-entities/${sent}`,
        `/api/v2/entities/legal-entities/${encoded}`,
      ],
      [
        'GET',
        `/api/v2/entities/natural-persons/${sent}`,
        `/api/v2/entities/natural-persons/${encoded}`,
      ],
      // Client-update routes are the gateway's own (client-updates/relayed-requests.test.ts).
      ['GET', `/api/v2/entities/${sent}/documents`, `/api/v2/entities/${encoded}/documents`],
      ['GET', `/api/v2/documents/${sent}`, `/api/v2/documents/${encoded}`],
      [
        'GET',
        '/api/v2/entities?companyName=%2e%2e%2f%5c&x=%zz',
        '/api/v2/entities?companyName=..%2F%5C&x=%25zz',
      ],
    ];
    for (const [method, path, expected] of cases) {
      upstream.requests.length = 0;
      const response = await rawCall(method, path, bearer(), method === 'POST' ? '{}' : undefined);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const [forwarded, ...others] = upstream.entityRequests();
      expect(others).toEqual([]);
      expect({ method: forwarded?.method, url: forwarded?.url }).toEqual({ method, url: expected });
    }
    // A HEAD is sent on as its GET (the service's read routes answer GET), and answered without a body.
    upstream.requests.length = 0;
    const head = await rawCall('HEAD', `/api/v2/documents/${sent}?x=1`, bearer());
    expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' });
    expect(upstream.entityRequests().map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET /api/v2/documents/${encoded}?x=1`,
    ]);
  });

  it('sends sign-in and token checks to their fixed paths, whatever the query', async () => {
    await rawCall('GET', '/api/tokenvalid?next=..%2f..%2fadmin', bearer());
    await rawCall(
      'POST',
      '/api/gettoken?next=http://169.254.169.254/',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'Username=a&Password=b',
    );
    expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/tokenvalid',
      'POST /api/gettoken',
    ]);
  });
});

describe('answers relayed', () => {
  it('answers 502 to a success that is not declared JSON, even when its bytes are JSON', async () => {
    const answers: [string, string][] = [
      ['text/html', '<html><script>alert(1)</script></html>'],
      ['text/html; charset=utf-8', '{"code":200,"status":"success","message":"","data":[]}'],
      ['text/plain', '{"code":200,"status":"success","message":"","data":[]}'],
      ['', '{"code":200,"status":"success","message":"","data":[]}'],
    ];
    for (const [type, text] of answers) {
      answerEntityCalls((_request, response) => {
        response.writeHead(200, type === '' ? {} : { 'content-type': type });
        response.end(text);
      });
      const response = await call('/api/v2/entities', { headers: bearer() });
      expect({ type, status: response.status }).toEqual({ type, status: 502 });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(errorOf(response).message).toBe(
        'The identity service answered with something other than JSON; the gateway relays JSON only.',
      );
    }
  });

  it('sends its own JSON content type, never the upstream’s, on every relayed answer', async () => {
    answerEntityCalls((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8; x=<b>' });
      response.end('{"code":200,"status":"success","message":"","data":[]}');
    });
    const success = await call('/api/v2/entities', { headers: bearer() });
    expect(success.status).toBe(200);
    expect(success.headers.get('content-type')).toBe('application/json; charset=utf-8');

    const envelope = '{"code":404,"status":"error","message":"No such entity.","data":[]}';
    answerEntityCalls((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end(envelope);
    });
    const error = await call('/api/v2/entities/legal-entities/x', { headers: bearer() });
    expect(error.status).toBe(404);
    expect(error.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(errorOf(error).message).toBe('The identity service does not know this path or id.');
  });

  it('checks the head of a streamed answer and its type before streaming it on', async () => {
    const large = 'x'.repeat(2 * 1024 * 1024);
    const answers: [string, string][] = [
      ['application/json', `<html>${large}</html>`],
      ['application/json', `["${large}"]`],
      ['text/html', `{"data":"${large}"}`],
      ['application/octet-stream', `{"data":"${large}"}`],
    ];
    for (const [type, text] of answers) {
      answerEntityCalls((_request, response) => {
        response.writeHead(200, { 'content-type': type });
        response.end(text);
      });
      const response = await call(`/api/v2/documents/${crypto.randomUUID()}`, {
        headers: bearer(),
      });
      expect({ type, start: text.slice(0, 6), status: response.status }).toEqual({
        type,
        start: text.slice(0, 6),
        status: 502,
      });
      expect(errorOf(response).message).toMatch(/other than JSON/);
    }
  });
});

describe('the API key in upstream answers', () => {
  /** Echoes back whatever key the gateway sent, as a hostile or careless upstream might. */
  const keyOf = (request: RecordedRequest) => String(request.headers['x-service-key']);

  it('redacts the key an upstream echoes in error messages, envelopes and headers', async () => {
    const answers: ((key: string, response: http.ServerResponse) => void)[] = [
      (key, response) => sendJson(response, 400, { message: `Key ${key} is not allowed here.` }),
      (key, response) =>
        sendJson(response, 403, { code: 403, status: 'error', message: `No (${key}).`, data: [] }),
      (key, response) => {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': key });
        response.end(`{"error":"slow down, ${key.replace('-', '\\u002d')}"}`);
      },
    ];
    for (const [index, answer] of answers.entries()) {
      answerEntityCalls((request, response) => answer(keyOf(request), response));
      const response = await call('/api/v2/entities', { headers: bearer() });
      expect({ index, status: response.status }).toEqual({
        index,
        status: [400, 403, 429][index],
      });
      expect(response.text).not.toContain(UPSTREAM_KEY);
      expect([...response.headers.values()].join('\n')).not.toContain(UPSTREAM_KEY);
      expect(errorOf(response).message).toContain('[redacted]');
    }
    expect(upstream.entityRequests().map(keyOf)).toEqual([
      UPSTREAM_KEY,
      UPSTREAM_KEY,
      UPSTREAM_KEY,
    ]);
  });

  it('redacts the key in a success body and in a token check’s refusal', async () => {
    answerEntityCalls((request, response) =>
      sendJson(response, 200, {
        code: 200,
        status: 'success',
        message: '',
        data: [{ note: `served for ${keyOf(request)}`, [keyOf(request)]: true }],
      }),
    );
    const success = await call('/api/v2/entities', { headers: bearer() });
    expect(success.status).toBe(200);
    expect(success.text).not.toContain(UPSTREAM_KEY);
    expect(success.body).toEqual({
      code: 200,
      status: 'success',
      message: '',
      data: [{ note: 'served for [redacted]*********', '[redacted]*********': true }],
    });

    // Spelled with an escape, the key's bytes are not in the answer, but it is still the key.
    answerEntityCalls((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        `{"code":200,"status":"success","message":"","data":[{"note":"for \\u${keyOf(request).charCodeAt(0).toString(16).padStart(4, '0')}${keyOf(request).slice(1)}"}]}`,
      );
    });
    const escaped = await call('/api/v2/entities', { headers: bearer() });
    expect(escaped.status).toBe(200);
    expect(escaped.body).toMatchObject({ data: [{ note: 'for [redacted]*********' }] });

    upstream.handle((_request, response) =>
      sendJson(response, 400, { message: `Token checks need ${UPSTREAM_KEY}.` }),
    );
    const refused = await call('/api/v2/entities', { headers: bearer() });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain(UPSTREAM_KEY);
    expect(errorOf(refused).message).toBe('Token checks need [redacted]*********.');
  });

  it('redacts the key everywhere in a streamed answer, also across chunk boundaries', async () => {
    let echoed = '';
    answerEntityCalls((request, response) => {
      // Nothing but keys, one byte apart: nearly every read of the gateway ends inside one.
      echoed = `{"data":{"file":"${`${keyOf(request)}.`.repeat(80_000)}"}}`;
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(echoed),
      });
      response.end(echoed);
    });
    const response = await call(`/api/v2/documents/${crypto.randomUUID()}`, { headers: bearer() });
    expect(response.status).toBe(200);
    expect(echoed.split(UPSTREAM_KEY)).toHaveLength(80_001);
    expect(response.text).not.toContain(UPSTREAM_KEY);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(echoed)));
    expect(response.text).toBe(echoed.split(UPSTREAM_KEY).join('[redacted]*********'));
  });
});

describe('served by the gateway itself', () => {
  it('answers health with the mode and serves the API reference without the upstream', async () => {
    const health = await call('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', mode: 'gateway', database: 'ok' });
    const document = await call('/api/openapi.json');
    expect(document.status).toBe(200);
    const paths = Object.keys((document.body as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/gettoken',
        '/api/tokenvalid',
        '/api/v2/entities',
        '/api/v2/documents/{id}',
        '/api/v2/entities/legal-entities/{id}/request-client-update',
      ]),
    );
    expect((await call('/api/docs')).status).toBe(200);
    expect(upstream.requests).toEqual([]);
  });

  it('refuses to start without the API key', () => {
    expect(() => loadConfig({ KYC_UPSTREAM_URL: 'http://127.0.0.1:1' })).toThrow(
      /KYC_UPSTREAM_API_KEY/,
    );
  });
});

import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import crypto from 'node:crypto';
import Fastify, { type FastifyError, type FastifyServerOptions } from 'fastify';
import { errorEnvelopeSchema, MAX_ID_LENGTH } from '../../contract/common.ts';
import { createApp } from '../app.ts';
import { loadConfig } from '../env.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  TEST_DOCUMENT_KEY,
  type TestServer,
} from '../testing/harness.ts';
import { answerFrameworkError } from './errors.ts';

let server: TestServer;
let bearer = '';
let routes: { method: string; path: string; isPublic: boolean }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  bearer = await server.token();
  // The route list comes from the OpenAPI document, so a new route is fuzzed without a test change.
  const document = (await server.request('/api/openapi.json', { auth: 'none' })).body as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  routes = Object.entries(document.paths).flatMap(([routePath, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: routePath,
      isPublic: (operation.security ?? []).length === 0,
    })),
  );
});

afterAll(async () => {
  await server.close();
});

interface RawAnswer {
  status: number | null;
  body: string;
}

/** Sends bytes as they are (fetch refuses odd header values and URLs) and reads the answer. */
function sendRaw(request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // Written without ending our side: Node closes a half-closed connection before a slow answer.
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.write(Buffer.from(request, 'latin1'));
    });
    socket.setTimeout(10_000, () => socket.destroy());
    const finish = () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const bodyStart = text.indexOf('\r\n\r\n');
      resolve({
        status: status ? Number(status) : null,
        body: bodyStart === -1 ? '' : text.slice(bodyStart + 4),
      });
    };
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close a refused connection while the request is still being written.
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

/** Pieces an ID is made of: plain, encoded, badly encoded, and raw bytes a URL may not hold. */
const ID_PIECES = [
  'a',
  '7',
  '-',
  '.',
  '..',
  '%00',
  '%0A',
  '%zz',
  '%',
  '%2F',
  '%2e%2e',
  '%C3%A9',
  '%FF',
  '%E0%A4%A',
  ';',
  '~',
  '+',
  '*',
  "'",
  '"',
  '<',
  '\\',
  '|',
  '\u00e9',
  '\u0000',
  ' ',
  '\t',
  '\u2028',
];

/** Lengths from 0 to ~20,000, with the contract's and the head's limits and their neighbours. */
const lengthArbitrary = fc.oneof(
  fc.constantFrom(
    0,
    1,
    MAX_ID_LENGTH - 1,
    MAX_ID_LENGTH,
    MAX_ID_LENGTH + 1,
    255,
    256,
    16 * 1024 - 200,
    16 * 1024,
    20_000,
  ),
  fc.integer({ min: 0, max: 20_000 }),
);

const textOfLength = (pieces: string[], length: number) =>
  pieces
    .join('')
    .repeat(Math.ceil(length / Math.max(1, pieces.join('').length)))
    .slice(0, length);

const HEADER_NAMES = [
  'Authorization',
  'X-API-Key',
  'Idempotency-Key',
  'Content-Type',
  'Accept',
  'Cookie',
  'Origin',
  'X-Forwarded-For',
  'If-None-Match',
  'X-Odd',
];

const requestArbitrary = fc.record({
  route: fc.nat(),
  idPieces: fc.array(fc.constantFrom(...ID_PIECES), { minLength: 1, maxLength: 4 }),
  idLength: lengthArbitrary,
  header: fc.constantFrom(...HEADER_NAMES),
  headerPieces: fc.array(
    fc.constantFrom('a', 'Z', '=', ' ', '\t', '\u00ff', '\r', '\n', '\u0000'),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  headerLength: lengthArbitrary,
  authenticated: fc.boolean(),
});

test('ids and header values of every length and odd characters, on every route, never get a 5xx', async () => {
  expect(routes.length).toBeGreaterThan(10);
  const statuses = new Map<number | null, number>();
  await fc.assert(
    fc.asyncProperty(requestArbitrary, async (input) => {
      const route = routes[input.route % routes.length] ?? { method: 'GET', path: '/' };
      const id = textOfLength(input.idPieces, input.idLength);
      const target = route.path.replace(/\{\w+\}/g, id);
      const headerValue = textOfLength(input.headerPieces, input.headerLength);
      const lines = [
        `${route.method} ${target} HTTP/1.1`,
        `Host: ${new URL(server.baseUrl).host}`,
        'Connection: close',
        'Content-Length: 0',
        ...(input.authenticated && input.header !== 'Authorization'
          ? [`Authorization: Bearer ${bearer}`]
          : []),
        `${input.header}: ${headerValue}`,
      ];
      const answer = await sendRaw(`${lines.join('\r\n')}\r\n\r\n`);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status ?? 0, `${route.method} ${target.slice(0, 200)}`).toBeLessThan(500);
      if (answer.status !== null && answer.status >= 400) {
        expect(errorEnvelopeSchema.parse(JSON.parse(answer.body)).code).toBe(answer.status);
      }
    }),
    { numRuns: 300 },
  );
  // The run reached routes, not only the parser's refusals.
  expect(
    [...statuses.keys()].filter((status) => status !== null && status < 400),
    JSON.stringify([...statuses]),
  ).not.toEqual([]);
}, 60_000);

test('an id longer than the contract allows is 404 like an unknown id on every :id route, and 401 without credentials as for other ids', async () => {
  const withIds = routes.filter((route) => route.path.includes('{'));
  expect(withIds.length).toBeGreaterThan(5);
  // The fuzz above may have sent the token to /api/signout, which ends its session.
  bearer = await server.token();
  for (const route of withIds) {
    const { method } = route;
    for (const length of [MAX_ID_LENGTH + 1, 5_000]) {
      const target = route.path.replace(/\{\w+\}/g, 'a'.repeat(length));
      const headers: Record<string, string> =
        method === 'GET' ? {} : { 'Content-Type': 'application/json' };
      const init = { method, headers, ...(method === 'GET' ? {} : { body: '{}' }) };
      const anonymous = await server.request(target, { ...init, auth: 'none' });
      // The gateway's own routes refuse an unusable id before the token, as they do `%00` (404).
      // A public route (the client portal's) has no credentials to ask for: the id decides.
      const anonymousStatuses = route.isPublic ? [404] : server.gateway ? [401, 404] : [401];
      expect(anonymousStatuses, `${route.method} ${route.path}`).toContain(anonymous.status);
      const signedIn = await server.request(target, {
        ...init,
        auth: 'none',
        headers: { ...init.headers, Authorization: `Bearer ${bearer}` },
      });
      expect({ route, length, status: signedIn.status }).toEqual({ route, length, status: 404 });
      // Unknown paths are named in the 404, but never thousands of characters of them.
      expect(errorEnvelopeSchema.parse(signedIn.body).message.length).toBeLessThan(300);
    }
  }
});

/** Log lines as objects, from a logger destination. */
function parsedLines(lines: string[]) {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('a 500 is logged at error level with its request id', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-5xx-'));
  const databaseUrl = await newTestDatabaseUrl();
  const lines: string[] = [];
  const app = await createApp(
    {
      ...loadConfig({
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY } : {}),
      }),
      staticDir: undefined,
    },
    { logger: { level: 'info', destination: { write: (line) => lines.push(line) } } },
  );
  try {
    // A route that fails as a bug would, added before the app is ready.
    app.get('/failing', () => {
      throw new Error('a bug');
    });
    app.get('/unavailable', (_request, reply) => reply.code(503).send({}));
    const failing = await app.inject({ method: 'GET', url: '/failing' });
    expect(failing.statusCode).toBe(500);
    expect(errorEnvelopeSchema.parse(failing.json()).message).toBe(
      'Something went wrong on the server. The error has been logged.',
    );
    const unavailable = await app.inject({ method: 'GET', url: '/unavailable' });
    expect(unavailable.statusCode).toBe(503);

    const logged = parsedLines(lines);
    for (const url of ['/failing', '/unavailable']) {
      const incoming = logged.find(
        (line) => (line.req as { url?: string } | undefined)?.url === url,
      );
      expect(incoming?.reqId).toEqual(expect.any(String));
      const errors = logged.filter((line) => line.level === 50 && line.reqId === incoming?.reqId);
      expect(errors, url).toHaveLength(1);
    }
  } finally {
    await app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropTestDatabaseUrl(databaseUrl);
  }
});

test('a framework error answered as 500 is logged with its request id', async () => {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    genReqId: () => crypto.randomUUID(),
    frameworkErrors: (error: FastifyError, request, reply) => {
      answerFrameworkError(error, request, reply);
    },
    // A constraint whose lookup fails: Fastify hands FST_ERR_ASYNC_CONSTRAINT (500) to frameworkErrors.
    constraints: {
      tenant: {
        name: 'tenant',
        storage: () => {
          const handlers = new Map<string, unknown>();
          return {
            get: (value: string) => handlers.get(value) ?? null,
            set: (value: string, store: unknown) => {
              handlers.set(value, store);
            },
          };
        },
        deriveConstraint: (_request: unknown, _context: unknown, done: (error: Error) => void) => {
          done(new Error('the tenant directory is down'));
        },
        validate: () => true,
      },
    } as unknown as FastifyServerOptions['constraints'],
  });
  app.get('/tenant', { constraints: { tenant: 'a' } }, () => 'ok');
  try {
    const failed = await app.inject({ method: 'GET', url: '/tenant' });
    expect(failed.statusCode).toBe(500);
    errorEnvelopeSchema.parse(failed.json());
    const logged = parsedLines(lines);
    const errorLines = logged.filter((line) => line.level === 50);
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]?.reqId).toEqual(expect.any(String));
    expect(
      logged.some(
        (line) => line.level === 30 && line.reqId === errorLines[0]?.reqId && 'req' in line,
      ),
    ).toBe(true);
  } finally {
    await app.close();
  }
});

test('framework errors that are the client’s are their 4xx in the envelope, logged below error level', async () => {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    frameworkErrors: (error: FastifyError, request, reply) => {
      answerFrameworkError(error, request, reply);
    },
    routerOptions: { maxParamLength: 10 },
  });
  app.get('/items/:id', () => 'ok');
  try {
    const tooLong = await app.inject({ method: 'GET', url: `/items/${'a'.repeat(11)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(errorEnvelopeSchema.parse(tooLong.json()).message).toBe('A path parameter is too long.');
    const badUrl = await app.inject({ method: 'GET', url: '/items/%zz' });
    expect(badUrl.statusCode).toBe(400);
    expect(errorEnvelopeSchema.parse(badUrl.json()).message).toBe(
      'The request path is not valid percent-encoding.',
    );
    expect(parsedLines(lines).filter((line) => Number(line.level) >= 50)).toEqual([]);
  } finally {
    await app.close();
  }
});

import fc from 'fast-check';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  SEARCH_FIELDS,
  entityListResponseSchema,
  legalEntityResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { looksLikeLeak, rowCounts } from '../testing/db-snapshot.ts';

const RUNS = 120;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  bearer = await server.token();
  await insertLegalEntity(server.app.services.db);
  await insertLegalEntity(server.app.services.db);
});
afterAll(async () => {
  await server.close();
});

type Response = Awaited<ReturnType<TestServer['request']>>;

let bearer = '';
/** One token for the whole file: in gateway mode each API-key request would issue (and store) a new one. */
function call(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${bearer}`);
  return server.request(pathAndQuery, { ...init, auth: 'none', headers });
}

/** Never a 500, never HTML or a stack trace: a success body of `successSchema` or the error envelope. */
function expectWellFormed(response: Response, successSchema: { parse(value: unknown): unknown }) {
  expect(response.status, response.text).toBeLessThan(500);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(looksLikeLeak(response.text), response.text).toBe(false);
  if (response.status < 300) successSchema.parse(response.body);
  else errorEnvelopeSchema.parse(response.body);
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '100',
    '101',
    '1e3',
    'true',
    'false',
    'TRUE',
    "' OR 1=1 --",
    '%',
    '_',
    'null',
  ),
);

test('list parameters: any values give a page or a 400, and change nothing', async () => {
  const names = [
    'limit',
    'start',
    'type',
    'descending',
    'supportingDocuments',
    'corporateVerification',
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 12 })), anyText, {
        maxKeys: 4,
      }),
      async (parameters) => {
        const before = await rowCounts(server.app.services.db);
        const response = await call(
          `/api/v2/entities?${new URLSearchParams(parameters).toString()}`,
        );
        expectWellFormed(response, entityListResponseSchema);
        expect([200, 400]).toContain(response.status);
        expect(await rowCounts(server.app.services.db)).toEqual(before);
      },
    ),
    { numRuns: RUNS },
  );
});

test('search parameters: any values give IDs or a 400, and change nothing', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(
        fc.oneof(fc.constantFrom(...SEARCH_FIELDS), fc.string({ maxLength: 12 })),
        anyText,
        {
          maxKeys: 3,
        },
      ),
      async (parameters) => {
        const before = await rowCounts(server.app.services.db);
        const response = await call(
          `/api/v2/entities/legal-entities?${new URLSearchParams(parameters).toString()}`,
        );
        expectWellFormed(response, searchResponseSchema);
        expect([200, 400]).toContain(response.status);
        expect(await rowCounts(server.app.services.db)).toEqual(before);
      },
    ),
    { numRuns: RUNS },
  );
});

test('create: arbitrary JSON bodies are refused with the envelope and store nothing', async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
      const before = await rowCounts(server.app.services.db);
      const response = await call('/api/v2/entities/legal-entities', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(value),
      });
      expectWellFormed(response, legalEntityResponseSchema);
      expect(response.status).toBe(400);
      expect(await rowCounts(server.app.services.db)).toEqual(before);
    }),
    { numRuns: RUNS },
  );
});

test('create: a valid payload with one field replaced is created or refused, and a refusal stores nothing', async () => {
  const paths = [
    ['externalID'],
    ['corporateInformation', 'companyName'],
    ['corporateInformation', 'country'],
    ['corporateInformation', 'duns'],
    ['corporateInformation', 'glei'],
    ['corporateInformation', 'dateofIncorporation'],
    ['corporateInformation', 'email'],
    ['primaryContact'],
    ['primaryContact', 'email'],
    ['corporateVerifications'],
    ['supportingDocuments'],
  ] as const;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths),
      fc.oneof(fc.jsonValue({ maxDepth: 3 }), anyText),
      async (path, replacement) => {
        const payload = legalEntityPayload() as unknown as Record<string, Record<string, unknown>>;
        const [first, second] = path;
        if (second === undefined) (payload as Record<string, unknown>)[first] = replacement;
        else (payload[first] ??= {})[second] = replacement;
        const before = await rowCounts(server.app.services.db);
        const response = await call('/api/v2/entities/legal-entities', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(payload),
        });
        expectWellFormed(response, legalEntityResponseSchema);
        expect([201, 400]).toContain(response.status);
        if (response.status !== 201) {
          expect(await rowCounts(server.app.services.db)).toEqual(before);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('create: arbitrary text sent as JSON is 400, never 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }), async (text) => {
      const response = await call('/api/v2/entities/legal-entities', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: text,
      });
      expectWellFormed(response, legalEntityResponseSchema);
      expect(response.status).toBe(400);
    }),
    { numRuns: RUNS },
  );
});

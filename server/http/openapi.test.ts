import { startTestServer, testEngine, testMode, type TestServer } from '../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ENDPOINTS: [string, string][] = [
  ['post', '/api/gettoken'],
  ['get', '/api/tokenvalid'],
  ['get', '/api/v2/entities'],
  ['get', '/api/v2/entities/legal-entities'],
  ['post', '/api/v2/entities/legal-entities'],
  ['get', '/api/v2/entities/legal-entities/{id}'],
  ['get', '/api/v2/entities/natural-persons/{id}'],
  ['get', '/api/v2/entities/legal-entities/{id}/request-client-update'],
  ['post', '/api/v2/entities/legal-entities/{id}/request-client-update'],
  ['get', '/api/v2/entities/legal-entities/{id}/client-update-requests'],
  ['get', '/api/v2/client-update-configs'],
  ['get', '/api/v2/entities/{id}/documents'],
  ['get', '/api/v2/documents/{id}'],
];

test('the OpenAPI document describes every endpoint, generated from the contract', async () => {
  const { status, body } = await server.request('/api/openapi.json', { auth: 'none' });
  expect(status).toBe(200);
  const document = body as {
    openapi: string;
    paths: Record<
      string,
      Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>
    >;
  };
  expect(document.openapi).toBe('3.1.0');
  for (const [method, path] of ENDPOINTS) {
    expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  }
  const list = document.paths['/api/v2/entities']?.get;
  expect(list?.parameters.map((p) => p.name).sort()).toEqual(
    ['corporateVerification', 'descending', 'limit', 'start', 'supportingDocuments', 'type'].sort(),
  );
  // Field names are spelled exactly as the interface spells them.
  const text = JSON.stringify(document);
  for (const name of ['dateofIncorporation', 'recepientId', 'glei', 'corporateVerifications']) {
    expect(text).toContain(`"${name}"`);
  }
});

test('the readable reference lists the same endpoints without any script', async () => {
  const { status, headers, text } = await server.request('/api/docs', { auth: 'none' });
  expect(status).toBe(200);
  expect(headers.get('content-type')).toContain('text/html');
  expect(text).not.toContain('<script');
  for (const [, path] of ENDPOINTS) expect(text).toContain(path);
});

// A gateway keeps no database; its own health answer is tested in server/gateway.
test.skipIf(testMode === 'gateway')('health answers when the database does', async () => {
  const { status, body } = await server.request('/healthz', { auth: 'none' });
  expect(status).toBe(200);
  expect(body).toEqual({ status: 'ok', engine: testEngine, database: 'ok' });
});

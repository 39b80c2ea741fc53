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

interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  enum?: unknown[];
}

interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: JsonSchemaNode }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchemaNode }> }>;
}

async function openApiPaths() {
  const { body } = await server.request('/api/openapi.json', { auth: 'none' });
  return (body as { paths: Record<string, Record<string, Operation>> }).paths;
}

/** The types a property accepts, anyOf and type arrays flattened. */
function typesOf(node: JsonSchemaNode | undefined): string[] {
  if (!node) return [];
  const own = node.type === undefined ? [] : [node.type].flat();
  return [...own, ...(node.anyOf ?? []).flatMap(typesOf)];
}

test('every operation has its own camelCase operationId, derived from method and path', async () => {
  const paths = await openApiPaths();
  const ids = Object.values(paths).flatMap((operations) =>
    Object.values(operations).map((operation) => operation.operationId),
  );
  expect(ids.length).toBeGreaterThanOrEqual(ENDPOINTS.length);
  for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect(paths['/api/v2/entities']?.get?.operationId).toBe('getEntities');
  expect(paths['/api/v2/entities/natural-persons/{id}']?.get?.operationId).toBe(
    'getEntitiesNaturalPersonsById',
  );
  expect(
    paths['/api/v2/entities/legal-entities/{id}/request-client-update']?.post?.operationId,
  ).toBe('postEntitiesLegalEntitiesByIdRequestClientUpdate');
});

test('response schemas document the tolerant shapes; request schemas stay strict', async () => {
  const paths = await openApiPaths();
  const success = (path: string) =>
    paths[path]?.get?.responses['200']?.content?.['application/json']?.schema.properties?.data;

  const person = success('/api/v2/entities/natural-persons/{id}');
  expect(person?.required ?? []).not.toContain('id');
  const kyc = person?.properties?.kycMetaData?.properties;
  expect(Object.keys(kyc ?? {})).toEqual(
    expect.arrayContaining(['entityID', 'status', 'dateCreated', 'assignedUser']),
  );
  expect(typesOf(kyc?.riskLevel)).toEqual(expect.arrayContaining(['string', 'number', 'null']));
  expect(Object.keys(person?.properties ?? {})).toEqual(
    expect.arrayContaining(['identityVerification', 'documentAuthentication']),
  );

  const detail = success('/api/v2/documents/{id}');
  expect(detail?.required).toEqual(expect.arrayContaining(['documentId', 'file']));
  expect(detail?.required).not.toContain('mimeType');

  const create =
    paths['/api/v2/entities/legal-entities']?.post?.requestBody?.content['application/json']?.schema
      .properties?.corporateInformation;
  expect(create?.required).toEqual(
    expect.arrayContaining(['companyName', 'registrationNumber', 'country']),
  );
  expect(create?.properties?.country?.enum).toContain('GB');
  expect(create?.properties?.country?.enum).not.toContain('USA');
});

test('the readable reference lists the same endpoints without any script', async () => {
  const { status, headers, text } = await server.request('/api/docs', { auth: 'none' });
  expect(status).toBe(200);
  expect(headers.get('content-type')).toContain('text/html');
  expect(text).not.toContain('<script');
  for (const [, path] of ENDPOINTS) expect(text).toContain(path);
});

test('health answers when the database does, with the mode', async () => {
  const { status, body } = await server.request('/healthz', { auth: 'none' });
  expect(status).toBe(200);
  expect(body).toEqual({
    status: 'ok',
    mode: testMode === 'gateway' ? 'gateway' : 'embedded',
    engine: testEngine,
    database: 'ok',
  });
});

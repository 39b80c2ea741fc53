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

interface FullDocument {
  info: { license?: { name: string }; contact?: { name?: string; email?: string } };
  tags: { name: string; description: string }[];
  paths: Record<
    string,
    Record<
      string,
      Operation & {
        tags: string[];
        description?: string;
        parameters: { name: string; in: string; required: boolean; schema: JsonSchemaNode }[];
        'x-browser-callable'?: boolean;
        'x-browser-alternative'?: string;
      }
    >
  >;
}

async function openApiDocument() {
  return (await server.request('/api/openapi.json', { auth: 'none' })).body as FullDocument;
}

test('every tag is declared with a description; info names a license and a contact', async () => {
  const document = await openApiDocument();
  expect(document.info.license?.name).toBeTruthy();
  expect(document.info.contact?.email).toMatch(/@/);
  const declared = new Map(document.tags.map((tag) => [tag.name, tag.description]));
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const tag of operation.tags) {
        expect(declared.get(tag), `${method} ${path}: tag ${tag}`).toBeTruthy();
      }
    }
  }
});

test('formats: dates, the LEI pattern, base64 files, Idempotency-Key, CSV', async () => {
  const { paths } = await openApiDocument();
  const createOperation = paths['/api/v2/entities/legal-entities']?.post;
  const create = createOperation?.requestBody?.content['application/json']?.schema as
    | (JsonSchemaNode & { properties: Record<string, JsonSchemaNode & Record<string, unknown>> })
    | undefined;
  const corporate = create?.properties.corporateInformation?.properties as
    Record<string, JsonSchemaNode & Record<string, unknown>> | undefined;
  expect(corporate?.glei?.pattern).toBe('^[0-9A-Z]{18}[0-9]{2}$');
  expect(JSON.stringify(corporate?.dateofIncorporation)).toContain('"format":"date"');
  const document = (create?.properties.supportingDocuments?.items?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  expect(document.file?.contentEncoding).toBe('base64');
  const verification = JSON.stringify(create?.properties.corporateVerifications);
  expect(verification).toContain('"format":"date"');

  const detail = paths['/api/v2/documents/{id}']?.get?.responses['200']?.content?.[
    'application/json'
  ]?.schema.properties?.data?.properties?.file as Record<string, unknown> | undefined;
  expect(detail?.contentEncoding).toBe('base64');

  expect(createOperation?.parameters).toContainEqual(
    expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
  );
  const auditLog = paths['/api/v2/audit-events']?.get?.responses['200']?.content;
  expect(Object.keys(auditLog ?? {})).toEqual(['application/json', 'text/csv']);
});

test('statuses the server sends: 400, 413 and 431, with the rules that answer 400', async () => {
  const { paths } = await openApiDocument();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      expect(operation.responses, `${method} ${path}`).toHaveProperty('400');
      expect(operation.responses, `${method} ${path}`).toHaveProperty('431');
      if (operation.requestBody)
        expect(operation.responses, `${method} ${path}`).toHaveProperty('413');
    }
  }
  const request = paths['/api/v2/entities/legal-entities/{id}/request-client-update'];
  const badRequest = request?.post?.responses['400'] as { description: string } | undefined;
  expect(badRequest?.description).toContain('recipient is not a natural person linked');
});

test('the GET with a body says browsers cannot call it and names its POST twin', async () => {
  const { paths } = await openApiDocument();
  const twins = paths['/api/v2/entities/legal-entities/{id}/request-client-update'];
  expect(twins?.get?.['x-browser-callable']).toBe(false);
  expect(twins?.get?.['x-browser-alternative']).toBe(twins?.post?.operationId);
  expect(twins?.get?.description).toMatch(/^Not callable from browsers.*POST/);
  expect(twins?.post?.['x-browser-callable']).toBeUndefined();
});

test('a header section over 16 KB is answered 431, as documented', async () => {
  const { status } = await server.request('/api/v2/entities', {
    auth: 'none',
    headers: { 'X-Filler': 'x'.repeat(17 * 1024) },
  });
  expect(status).toBe(431);
});

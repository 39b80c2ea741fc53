import fs from 'node:fs/promises';
import http from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAccount } from '../auth/accounts.ts';
import { clientUpdatesRepository } from '../client-updates/repository.ts';
import {
  API_TYPES_COMMAND,
  API_TYPES_FILE,
  renderApiTypes,
  servedOpenApiDocument,
} from '../testing/api-types.ts';
import { testPdf } from '../testing/document-files.ts';
import { insertNaturalPerson } from '../testing/fixtures.ts';
import type { paths } from '../testing/generated/openapi.d.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';

/**
 * Issue 32: a client generated from the served OpenAPI document (openapi-typescript types,
 * openapi-fetch) calls every documented operation with valid inputs; each answer is checked
 * against the schema documented for its status and media type, and the operations called must be
 * exactly the document's, so a new route without a call here fails. Gateway-only operations
 * (webhooks) are not in the embedded document this test reads.
 */

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  content?: Record<string, { schema: unknown }>;
}

let server: TestServer;
let document: OpenApiDocument;
let ajv: Ajv2020;
const called = new Set<string>();
const mismatches: string[] = [];

/** `/` and `~` escaped for a JSON pointer into the document (RFC 6901). */
const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validatorFor(path: string, method: string, status: string, mediaType: string) {
  const response = document.paths[path]?.[method]?.responses[status];
  if (!response?.content?.[mediaType]) return undefined;
  const ref = `openapi#/${pointer('paths', path, method, 'responses', status, 'content', mediaType, 'schema')}`;
  return ajv.getSchema(ref) as ValidateFunction | undefined;
}

/** Checks each answer against the documented schema for its status, and records the operation. */
const validateAnswers: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const method = request.method.toLowerCase();
    const operation = `${request.method} ${schemaPath}`;
    called.add(operation);
    const status = String(response.status);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const validate = validatorFor(schemaPath, method, status, mediaType);
    const text = await response.clone().text();
    if (!validate) {
      mismatches.push(
        `${operation}: ${status} ${mediaType} is not documented (${text.slice(0, 200)})`,
      );
      return;
    }
    const body: unknown = mediaType === 'application/json' ? JSON.parse(text) : text;
    if (!validate(body)) {
      mismatches.push(`${operation} ${status}: ${ajv.errorsText(validate.errors)}`);
    }
  },
};

/** A typed client authenticated with `headers`, validating every answer. */
function clientWith(headers: Record<string, string>): Client<paths> {
  const client = createClient<paths>({
    baseUrl: server.baseUrl,
    headers,
    fetch: fetchAllowingGetBody,
  });
  client.use(validateAnswers);
  return client;
}

/**
 * fetch cannot send the interface's GET with a body (the document marks it not browser-callable):
 * such a request is built as a POST tagged here, and sent as a GET over node:http.
 */
const GET_WITH_BODY = 'x-kyc-test-get-with-body';

async function fetchAllowingGetBody(request: Request): Promise<Response> {
  if (!request.headers.has(GET_WITH_BODY)) return fetch(request);
  const body = Buffer.from(await request.arrayBuffer());
  const forwarded = new Headers(request.headers);
  forwarded.delete(GET_WITH_BODY);
  const headers = Object.fromEntries(forwarded);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      request.url,
      { method: 'GET', headers: { ...headers, 'content-length': String(body.length) } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const answer = new Response(Buffer.concat(chunks), {
            status: incoming.statusCode ?? 0,
            headers: incoming.headers as Record<string, string>,
          });
          resolve(answer);
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The Request the client builds for the GET with a body: a POST whose method reads GET. */
class GetWithBodyRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    const headers = new Headers(init?.headers);
    headers.set(GET_WITH_BODY, '1');
    super(input, { ...init, method: 'POST', headers });
  }
  override get method() {
    return 'GET';
  }
}

/** Awaits one call and checks its status, showing the error body when it differs. */
async function expectStatus<T extends { response: Response; error?: unknown }>(
  call: Promise<T>,
  status: number,
): Promise<T> {
  const result = await call;
  const { method, url } = result.response as Response & { method?: string };
  expect(result.response.status, `${method ?? ''} ${url}: ${JSON.stringify(result.error)}`).toBe(
    status,
  );
  return result;
}

async function setRisk(entityId: string, riskLevel: string) {
  await server.app.services.db
    .updateTable('entities')
    .set({ risk_level: riskLevel })
    .where('id', '=', entityId)
    .execute();
}

beforeAll(async () => {
  server = await startTestServer();
  document = (await server.request('/api/openapi.json', { auth: 'none' })).body as OpenApiDocument;
  // The document is OpenAPI 3.1, whose schemas are JSON Schema 2020-12.
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  ajv.addSchema(document, 'openapi');
});
afterAll(async () => {
  await server.close();
});

test.skipIf(testEngine === 'postgres')(
  'the committed OpenAPI types are those of the served document',
  async () => {
    const committed = await fs.readFile(API_TYPES_FILE, 'utf8');
    const fresh = await renderApiTypes(await servedOpenApiDocument());
    expect(
      committed === fresh,
      `${API_TYPES_FILE} is stale: run \`${API_TYPES_COMMAND}\` and commit it`,
    ).toBe(true);
  },
);

test('a generated client calls every operation, and every answer matches its documented schema', async () => {
  const reviewer = clientWith(await server.authHeaders('token'));
  const second = await createAccount(server.app.services.db, `second-${Date.now()}`);
  const secondReviewer = clientWith({ 'X-API-Key': second.apiKey });
  const auditorAccount = await createAccount(server.app.services.db, `auditor-${Date.now()}`, {
    role: 'auditor',
  });
  const anonymous = clientWith({});

  // Authentication: a token of its own, checked, then signed out at the end.
  const signedIn = await anonymous.POST('/api/gettoken', {
    body: { Username: server.account.username, Password: server.account.password },
    bodySerializer: (body) => new URLSearchParams(body).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  await expectStatus(Promise.resolve(signedIn), 200);
  const ownToken = signedIn.data?.token ?? '';
  const withOwnToken = clientWith({ Authorization: `Bearer ${ownToken}` });
  await expectStatus(withOwnToken.GET('/api/tokenvalid'), 200);
  await expectStatus(reviewer.GET('/api/capabilities'), 200);

  // Entities: onboard a legal entity with a document, then read it every way.
  const payload = legalEntityPayload({
    supportingDocuments: [
      {
        fileName: 'incorporation.pdf',
        type: 'Certificate of Incorporation',
        mimeType: 'application/pdf',
        file: testPdf().toString('base64'),
      },
    ],
  });
  const created = await reviewer.POST('/api/v2/entities/legal-entities', {
    body: payload,
    params: { header: { 'Idempotency-Key': `generated-client-${Date.now()}` } },
  });
  await expectStatus(Promise.resolve(created), 201);
  const entityId = created.data?.data.id ?? '';
  const entity = await reviewer.GET('/api/v2/entities/legal-entities/{id}', {
    params: { path: { id: entityId } },
  });
  await expectStatus(Promise.resolve(entity), 200);
  const contactId =
    entity.data?.data.linkedEntities?.find((link) => link.relationship === 'Primary Contact')
      ?.entityID ?? '';
  await expectStatus(
    reviewer.GET('/api/v2/entities', {
      params: { query: { limit: 5, supportingDocuments: 'true', corporateVerification: 'true' } },
    }),
    200,
  );
  expect(
    (
      await reviewer.GET('/api/v2/entities/legal-entities', {
        params: { query: { companyName: payload.corporateInformation.companyName } },
      })
    ).data?.data,
  ).toHaveLength(1);
  await expectStatus(
    reviewer.GET('/api/v2/entities/natural-persons', {
      params: { query: { lastName: 'Lovelace' } },
    }),
    200,
  );
  await expectStatus(
    reviewer.GET('/api/v2/entities/natural-persons/{id}', {
      params: { path: { id: contactId } },
    }),
    200,
  );

  // Documents.
  const documents = await reviewer.GET('/api/v2/entities/{id}/documents', {
    params: { path: { id: entityId } },
  });
  const documentId = documents.data?.data[0]?.documentId ?? '';
  expect(documentId).not.toBe('');
  await expectStatus(
    reviewer.GET('/api/v2/documents/{id}', { params: { path: { id: documentId } } }),
    200,
  );
  await expectStatus(
    reviewer.PATCH('/api/v2/documents/{id}', {
      params: { path: { id: documentId } },
      body: { documentApproved: true },
    }),
    200,
  );

  // Client updates: both ways of asking, the history, a resend (of a sent one: answered as it
  // stands), a reminder (too early) and, once the client has answered, Mark reviewed.
  const configs = await reviewer.GET('/api/v2/client-update-configs');
  const configId = configs.data?.data[0]?.configId ?? 0;
  const updateBody = {
    recepientId: contactId,
    emailSubject: 'Please review your company information',
    emailMessage: 'Hello,\n\nPlease confirm your registered address.',
    configId,
    domain: 'portal.kyc-desk.local',
  };
  const requested = await reviewer.POST(
    '/api/v2/entities/legal-entities/{id}/request-client-update',
    { params: { path: { id: entityId } }, body: updateBody },
  );
  await expectStatus(Promise.resolve(requested), 202);
  const requestId = requested.data?.data.requestId ?? '';
  await expectStatus(
    reviewer.GET('/api/v2/entities/legal-entities/{id}/request-client-update', {
      params: { path: { id: entityId } },
      body: updateBody,
      Request: GetWithBodyRequest,
    }),
    202,
  );
  expect(
    (
      await reviewer.GET('/api/v2/entities/legal-entities/{id}/client-update-requests', {
        params: { path: { id: entityId } },
      })
    ).data?.data,
  ).toHaveLength(2);
  await expectStatus(
    reviewer.POST(
      '/api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/resend',
      { params: { path: { id: entityId, requestId } } },
    ),
    202,
  );
  // A reminder on a request sent a moment ago: 409 until REMINDER_AFTER_DAYS have passed.
  await expectStatus(
    reviewer.POST(
      '/api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/remind',
      { params: { path: { id: entityId, requestId }, header: { 'Idempotency-Key': 'once' } } },
    ),
    409,
  );
  const updates = clientUpdatesRepository(server.app.services.db);
  const answeredAt = new Date().toISOString();
  await updates.markOpened(requestId, answeredAt);
  await updates.markSubmitted(requestId, answeredAt);
  await updates.insertResponse({
    request_id: requestId,
    entity_id: entityId,
    recipient_id: contactId,
    contact: JSON.stringify({ address: '1 New Street, London' }),
    submitted_at: answeredAt,
    contact_outcome: null,
    contact_decided_by: null,
    contact_decided_at: null,
  });
  await expectStatus(
    reviewer.GET(
      '/api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/response',
      { params: { path: { id: entityId, requestId } } },
    ),
    200,
  );
  await expectStatus(
    reviewer.POST(
      '/api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/response/contact',
      { params: { path: { id: entityId, requestId } }, body: { action: 'dismiss' } },
    ),
    200,
  );
  await expectStatus(
    reviewer.POST(
      '/api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/review',
      { params: { path: { id: entityId, requestId } } },
    ),
    200,
  );

  // The portal's submission, public: a link without its page's nonce is refused before anything.
  await expectStatus(
    anonymous.POST('/api/portal/{token}', {
      params: { path: { token: 'a'.repeat(43) } },
      body: { documents: [], contact: { address: '1 New Street, London' } },
    }),
    403,
  );

  // Notes.
  await expectStatus(
    reviewer.POST('/api/v2/entities/{id}/notes', {
      params: { path: { id: entityId } },
      body: { text: 'Called the client.' },
    }),
    201,
  );
  await expectStatus(
    reviewer.GET('/api/v2/entities/{id}/notes', { params: { path: { id: entityId } } }),
    200,
  );

  // Reviews queue and assignment.
  await expectStatus(reviewer.GET('/api/v2/reviews', { params: { query: { due: 'all' } } }), 200);
  await expectStatus(
    reviewer.GET('/api/v2/entity-index', {
      params: { query: { sort: 'nextReview', order: 'desc', riskLevel: 'Low' } },
    }),
    200,
  );
  await expectStatus(reviewer.POST('/api/v2/reviews/take-next', { body: { due: 'all' } }), 200);
  await expectStatus(reviewer.GET('/api/v2/reviewers'), 200);
  await expectStatus(reviewer.GET('/api/v2/stats'), 200);
  await expectStatus(
    reviewer.PUT('/api/v2/entities/{id}/assignee', {
      params: { path: { id: entityId } },
      body: { username: server.account.username },
    }),
    200,
  );
  await expectStatus(
    reviewer.GET('/api/v2/entities/{id}/assignee', { params: { path: { id: entityId } } }),
    200,
  );

  // Decisions: a High-risk acceptance is held, confirmed by a second reviewer; a High-risk
  // person's acceptance is held and rejected; a Medium risk lowered applies at once, a High one
  // waits (202).
  await setRisk(entityId, 'High');
  const outcome = await reviewer.POST('/api/v2/entities/legal-entities/{id}/verifications', {
    params: { path: { id: entityId } },
    body: {
      verificationStatus: 'Accepted',
      verificationDate: new Date().toISOString().slice(0, 10),
      verificationSource: 'Companies House',
      nextReviewDate: '2099-06-15',
    },
  });
  await expectStatus(Promise.resolve(outcome), 201);
  expect(
    (
      await reviewer.GET('/api/v2/entities/legal-entities/{id}/pending-verifications', {
        params: { path: { id: entityId } },
      })
    ).data?.data,
  ).toHaveLength(1);
  await expectStatus(reviewer.GET('/api/v2/pending-verifications'), 200);
  const heldOutcome = outcome.data?.data;
  const heldOutcomeId = heldOutcome?.state === 'pending' ? heldOutcome.pending.id : '';
  await expectStatus(
    secondReviewer.POST('/api/v2/pending-verifications/{id}/confirm', {
      params: { path: { id: heldOutcomeId } },
      body: {},
    }),
    200,
  );

  const personId = await insertNaturalPerson(server.app.services.db);
  await setRisk(personId, 'High');
  const personReview = await reviewer.POST('/api/v2/entities/natural-persons/{id}/reviews', {
    params: { path: { id: personId } },
    body: { kycStatus: 'Accepted', nextKYCReview: '2099-06-15', reason: 'Passport checked.' },
  });
  await expectStatus(Promise.resolve(personReview), 201);
  await expectStatus(
    reviewer.GET('/api/v2/entities/natural-persons/{id}/reviews', {
      params: { path: { id: personId } },
    }),
    200,
  );
  await expectStatus(
    reviewer.GET('/api/v2/entities/natural-persons/{id}/pending-verifications', {
      params: { path: { id: personId } },
    }),
    200,
  );
  const heldReview = personReview.data?.data;
  await expectStatus(
    secondReviewer.POST('/api/v2/pending-verifications/{id}/reject', {
      params: { path: { id: heldReview?.state === 'pending' ? heldReview.pending.id : '' } },
      body: { reason: 'The passport has expired.' },
    }),
    200,
  );
  await setRisk(entityId, 'Medium');
  await expectStatus(
    reviewer.PUT('/api/v2/entities/{id}/risk-level', {
      params: { path: { id: entityId } },
      body: { riskLevel: 'Low', reason: 'Ownership now transparent.' },
    }),
    200,
  );
  await expectStatus(
    reviewer.PUT('/api/v2/entities/{id}/risk-level', {
      params: { path: { id: personId } },
      body: { riskLevel: 'Medium', reason: 'Sanctions match cleared.' },
    }),
    202,
  );

  // Audit trail: the entity's activity for anyone, the whole trail for auditors (JSON and CSV).
  await expectStatus(
    reviewer.GET('/api/v2/entities/{id}/audit-events', {
      params: { path: { id: entityId } },
    }),
    200,
  );
  const auditor = clientWith({ 'X-API-Key': auditorAccount.apiKey });
  await expectStatus(auditor.GET('/api/v2/audit-events'), 200);
  const csv = await auditor.GET('/api/v2/audit-events', {
    params: { query: { format: 'csv' } },
    parseAs: 'text',
  });
  expect(csv.response.headers.get('content-type')).toMatch(/^text\/csv/);

  await expectStatus(withOwnToken.POST('/api/signout', { body: { everywhere: false } }), 200);

  expect(mismatches).toEqual([]);
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect([...called].sort()).toEqual(documented.sort());
});

import { randomUUID } from 'node:crypto';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

// In the server-gateway project these go to the gateway's own routes, next to the declarations of
// the forwarded ones (gateway/api-document.ts) that must not take their automatic HEAD.
let server: TestServer;
let entityId: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ legalEntityId: entityId } = await insertLegalEntity(server.app.services.db));
});
afterAll(() => server.close());

/** The GET routes a gateway serves itself, with the credential each is read with. */
const ownGetRoutes = (): [path: string, auth: 'token' | 'none'][] => [
  [`/api/v2/entities/${entityId}/notes`, 'token'],
  ['/api/v2/client-update-configs', 'token'],
  [`/api/v2/entities/legal-entities/${entityId}/client-update-requests`, 'token'],
  [
    `/api/v2/entities/legal-entities/${entityId}/client-update-requests/${randomUUID()}/response`,
    'token',
  ],
  [`/api/v2/entities/legal-entities/${entityId}/request-client-update`, 'token'],
  ['/api/v2/reviewers', 'token'],
  [`/api/v2/entities/${entityId}/assignee`, 'token'],
  [`/api/v2/entities/${randomUUID()}/assignee`, 'token'],
  [`/api/v2/entities/${entityId}/audit-events`, 'token'],
  ['/api/v2/audit-events', 'token'],
  // The gateway's own token check shares its path with a declaration of the embedded one.
  ['/api/tokenvalid', 'token'],
  ['/api/capabilities', 'token'],
  ['/api/capabilities', 'none'],
  ['/api/openapi.json', 'none'],
  ['/api/docs', 'none'],
  ['/api/docs.css', 'none'],
];

test('HEAD on each of its own GET routes answers as the GET does, without a body', async () => {
  const answers = [];
  for (const [path, auth] of ownGetRoutes()) {
    const get = await server.request(path, { auth });
    const head = await server.request(path, { method: 'HEAD', auth });
    answers.push({
      path: `${path} (${auth})`,
      get: [get.status, get.headers.get('content-type')],
      head: [head.status, head.headers.get('content-type')],
      headBody: head.text,
    });
  }
  expect(answers).toEqual(answers.map((answer) => ({ ...answer, head: answer.get, headBody: '' })));
  // Not all alike: the table holds successes and refusals, so a HEAD that always 404s would fail.
  const statuses = new Set(answers.map((answer) => answer.get[0]));
  expect([...statuses]).toEqual(expect.arrayContaining([200, 401, 404]));
});

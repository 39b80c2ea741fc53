import { errorEnvelopeSchema } from '../../contract/common.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

test('a route that takes no query parameters refuses any, naming it', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  for (const pathname of [
    `/api/v2/entities/legal-entities/${legalEntityId}`,
    `/api/v2/entities/${legalEntityId}/documents`,
    `/api/v2/entities/legal-entities/${legalEntityId}/client-update-requests`,
    '/api/v2/client-update-configs',
  ]) {
    const plain = await server.request(pathname);
    expect(plain.status, pathname).toBe(200);
    const response = await server.request(`${pathname}?supportingDocument=true`);
    expect(response.status, pathname).toBe(400);
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body.message).toContain('supportingDocument');
    expect(body.errors?.map((error) => error.field)).toEqual(['supportingDocument']);
  }
});

import { errorEnvelopeSchema } from '../../contract/common.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

// Both modes here: this file is not in the server-gateway project's list.
describe.each(['embedded', 'gateway'] as const)('a wrong method on a known path (%s)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server.close();
  });

  test('is 405 with Allow naming the methods the path takes', async () => {
    for (const [method, pathname, allow] of [
      ['DELETE', '/api/v2/entities', /^GET(, HEAD)?$/],
      ['PUT', '/api/v2/entities/legal-entities', /POST/],
      ['DELETE', '/api/v2/documents/some-id', /GET/],
    ] as const) {
      const response = await server.request(pathname, { method });
      expect(response.status, `${method} ${pathname}`).toBe(405);
      expect(response.headers.get('allow'), `${method} ${pathname}`).toMatch(allow);
      expect(response.headers.get('allow'), `${method} ${pathname}`).not.toContain(method);
      expect(errorEnvelopeSchema.parse(response.body).code).toBe(405);
    }
  });

  test('an unknown path is still 404, with no Allow', async () => {
    const response = await server.request('/api/v2/nothing-here', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
  });
});

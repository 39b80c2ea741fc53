import http from 'node:http';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const rawPost = (pathname: string, headers: Record<string, string>, body: Buffer) =>
  rawSend('POST', pathname, headers, body);

/** node:http with the body as raw bytes, exactly as given (fetch would re-encode or complete it). */
function rawSend(
  method: 'GET' | 'POST',
  pathname: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(pathname, server.baseUrl),
      { method, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('multipart sign-in', () => {
  const boundary = '----kyc-desk-test-boundary';
  const complete = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="Username"',
    '',
    'someone',
    `--${boundary}`,
    'Content-Disposition: form-data; name="Password"',
    '',
    'not-the-password',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };

  test('a complete multipart body reaches the credential check (control)', async () => {
    const response = await rawPost('/api/gettoken', headers, Buffer.from(complete));
    expect(response.status).toBe(401);
  });

  test.each([
    ['without its closing boundary', complete.slice(0, complete.indexOf(`--${boundary}--`))],
    ['cut inside a part', complete.slice(0, complete.indexOf('not-the-pass'))],
    ['cut inside the part headers', complete.slice(0, complete.indexOf('name="Password"') + 8)],
  ])('a multipart body %s is 400 with the envelope', async (_what, body) => {
    const response = await rawPost('/api/gettoken', headers, Buffer.from(body));
    expect(response.status).toBe(400);
    const envelope = errorEnvelopeSchema.parse(response.body);
    expect(envelope.message).toMatch(/multipart/i);
  });

  test('a multipart content type without a boundary is 400 with the envelope', async () => {
    const response = await rawPost(
      '/api/gettoken',
      { 'content-type': 'multipart/form-data' },
      Buffer.from(complete),
    );
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).message).toMatch(/multipart/i);
  });
});

describe('JSON bodies', () => {
  const createPath = '/api/v2/entities/legal-entities';

  test('invalid UTF-8 in a JSON body is 400 naming the encoding, not replaced by U+FFFD', async () => {
    const authorization = await server.authHeaders('apiKey');
    const payload = JSON.stringify(
      legalEntityPayload({ corporateInformation: { companyName: 'Bad Bytes NAME Ltd' } }),
    );
    const [before = '', after = ''] = payload.split('NAME');
    for (const bytes of [
      [0xff],
      [0xc3], // a lead byte without its continuation
      [0xed, 0xa0, 0x80], // an encoded UTF-16 surrogate
      [0xc0, 0xaf], // an overlong '/'
    ]) {
      const body = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
      const response = await rawPost(
        createPath,
        { ...authorization, 'content-type': 'application/json' },
        body,
      );
      expect(response.status, bytes.join(',')).toBe(400);
      expect(errorEnvelopeSchema.parse(response.body).message).toMatch(/UTF-8/);
    }
  });

  test('invalid UTF-8 in the JSON body of GET request-client-update is 400 as well', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const body = Buffer.concat([
      Buffer.from(`{"recepientId":"${primaryContactId}","emailSubject":"Hi `),
      Buffer.from([0xff]),
      Buffer.from('","emailMessage":"Hello","configId":1,"domain":"portal.kyc-desk.local"}'),
    ]);
    const response = await rawSend(
      'GET',
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      { ...(await server.authHeaders('apiKey')), 'content-type': 'application/json' },
      body,
    );
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).message).toMatch(/UTF-8/);
  });

  test('valid UTF-8 beyond ASCII is accepted (control)', async () => {
    const authorization = await server.authHeaders('apiKey');
    const body = Buffer.from(
      JSON.stringify(
        legalEntityPayload({ corporateInformation: { companyName: 'Ærø Ünïcødé 株式会社 🚀' } }),
      ),
    );
    const response = await rawPost(
      createPath,
      { ...authorization, 'content-type': 'application/json' },
      body,
    );
    expect(response.status).toBe(201);
  });
});

describe('NUL characters in JSON bodies', () => {
  test.each([
    ['a text field', { externalID: '\u0000' }],
    ['a nested field', { corporateInformation: { city: 'Oslo\u0000' } }],
  ])('in %s of a create are 400 on either engine, never stored', async (_where, overrides) => {
    const payload = legalEntityPayload(overrides);
    const response = await rawPost(
      '/api/v2/entities/legal-entities',
      { ...(await server.authHeaders('apiKey')), 'content-type': 'application/json' },
      Buffer.from(JSON.stringify(payload)),
    );
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).message).toMatch(/NUL character/);
  });

  test('in the JSON body of GET request-client-update are 400 as well', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const response = await rawSend(
      'GET',
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      { ...(await server.authHeaders('apiKey')), 'content-type': 'application/json' },
      Buffer.from(
        JSON.stringify({
          recepientId: primaryContactId,
          emailSubject: 'Hi\u0000',
          emailMessage: 'Hello',
          configId: 1,
          domain: 'portal.kyc-desk.local',
        }),
      ),
    );
    expect(response.status).toBe(400);
    expect(errorEnvelopeSchema.parse(response.body).message).toMatch(/NUL character/);
  });
});

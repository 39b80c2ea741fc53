import fs from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { clientUpdateAcceptedResponseSchema } from '../../contract/client-updates.ts';
import { hostNameSchema } from '../../contract/client-updates.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { SEARCH_FIELDS, searchResponseSchema } from '../../contract/entities.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { readMime } from '../testing/read-mime.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { looksLikeLeak, rowCounts } from '../testing/db-snapshot.ts';

let server: TestServer;
let fixture: Awaited<ReturnType<typeof insertLegalEntity>>;

beforeAll(async () => {
  server = await startTestServer({ env: { PORTAL_DOMAIN: 'portal.example.com' } });
  bearer = await server.token();
  fixture = await insertLegalEntity(server.app.services.db, {
    legalEntity: { company_name: 'Quartz Harbour Ltd', glei: '5493001KJTIIGC8Y1R12' },
    entity: { external_id: 'EXT-QUARTZ' },
  });
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

/** A refusal: the given status, the error envelope, nothing leaked. */
function expectRefusal(response: Response, status: number) {
  expect(response.status, response.text).toBe(status);
  expect(errorEnvelopeSchema.parse(response.body).code).toBe(status);
  expect(looksLikeLeak(response.text), response.text).toBe(false);
}

/** Runs `send` and checks that no table gained or lost a row. */
async function expectNoChange(send: () => Promise<void>) {
  const before = await rowCounts(server.app.services.db);
  await send();
  expect(await rowCounts(server.app.services.db)).toEqual(before);
}

function postJson(pathname: string, body: string, contentType = 'application/json') {
  return call(pathname, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
}

const CREATE_PATH = '/api/v2/entities/legal-entities';
const INJECTIONS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '%',
  '_',
  '%%',
  '\\',
  '"; DROP TABLE entities; --',
  "Quartz' UNION SELECT id FROM accounts --",
  '*',
  'NEAR(quartz harbour)',
  'quartz OR harbour',
  '"quartz"',
  // Cyrillic Ԛ and Greek Η: look-alikes that NFKC leaves as they are.
  'Ԛuartz Ηarbour',
  'İstanbul ß ﬁ 🚀 \u0301',
  '\u0000',
  'a'.repeat(300),
];

describe('search with hostile strings', () => {
  test('the control search finds the fixture, so an empty answer below means something', async () => {
    const response = await call('/api/v2/entities/legal-entities?companyName=quartz harb');
    expect(searchResponseSchema.parse(response.body).data).toEqual([fixture.legalEntityId]);
    // Circled and full-width letters are Q and H after NFKC, as decisions.md has search compare.
    const compatible = await call(
      `/api/v2/entities/legal-entities?companyName=${encodeURIComponent('Ⓠuartz Ｈarbour')}`,
    );
    expect(searchResponseSchema.parse(compatible.body).data).toEqual([fixture.legalEntityId]);
  });

  test('every search field answers 200 without false matches, or 400; never 500', async () => {
    await expectNoChange(async () => {
      for (const field of SEARCH_FIELDS) {
        for (const value of INJECTIONS) {
          const query = new URLSearchParams({ [field]: value }).toString();
          const response = await call(`/api/v2/entities/legal-entities?${query}`);
          const label = `${field}=${JSON.stringify(value)}`;
          expect([200, 400], label).toContain(response.status);
          expect(looksLikeLeak(response.text), label).toBe(false);
          if (response.status === 200) {
            expect(searchResponseSchema.parse(response.body).data, label).toEqual([]);
          } else {
            errorEnvelopeSchema.parse(response.body);
          }
        }
      }
    });
  });

  test('hostile list parameters and ids are 400 or 404', async () => {
    for (const query of [
      'limit=1 OR 1=1',
      "start=0'",
      'type=all%27--',
      'descending=1',
      'limit=0x',
    ]) {
      expectRefusal(await call(`/api/v2/entities?${query}`), 400);
    }
    for (const id of ["' OR '1'='1", '%', '..%2F..%2Fetc%2Fpasswd']) {
      expectRefusal(await call(`/api/v2/entities/legal-entities/${encodeURIComponent(id)}`), 404);
      expectRefusal(await call(`/api/v2/documents/${encodeURIComponent(id)}`), 404);
    }
  });
});

describe('create with bad bodies', () => {
  test('malformed JSON, unknown content types and invalid base64 are refused and store nothing', async () => {
    await expectNoChange(async () => {
      for (const body of [
        '{"corporateInformation":',
        '{]',
        "{'a':1}",
        'null',
        '[]',
        '"text"',
        '{"__proto__":{"x":1}}',
      ]) {
        expectRefusal(await postJson(CREATE_PATH, body), 400);
      }
      const valid = JSON.stringify(legalEntityPayload());
      for (const contentType of [
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'application/jsonx',
        'image/png',
      ]) {
        expectRefusal(await postJson(CREATE_PATH, valid, contentType), 415);
      }
      for (const file of ['not base64!', 'QUJD=', 'QUJ', '====', '', 'QUJD\nRA==', 'Q'.repeat(5)]) {
        const response = await postJson(
          CREATE_PATH,
          JSON.stringify(
            legalEntityPayload({
              supportingDocuments: [
                { fileName: 'a.pdf', type: 'Other', mimeType: 'application/pdf', file },
              ],
            }),
          ),
        );
        expectRefusal(response, 400);
        expect(errorEnvelopeSchema.parse(response.body).errors?.map((e) => e.field)).toContain(
          'supportingDocuments.0.file',
        );
      }
    });
  });

  test('file names with path separators, control characters or format characters are refused', async () => {
    await expectNoChange(async () => {
      for (const fileName of [
        '../../etc/passwd',
        '..\\x',
        'C:\\Windows\\system32',
        '/etc/passwd',
        'report\u0000.pdf',
        'report\r\n.pdf',
        'invoice\u202Efdp.exe',
        'invoice\u061Cfdp.exe',
        'in\u200Bvoice.pdf',
        're\uFEFFport.pdf',
        'report\u00AD.pdf',
        'report\u2060.pdf',
        'report\u{E0041}.pdf',
        '..',
        '.',
      ]) {
        const response = await postJson(
          CREATE_PATH,
          JSON.stringify(
            legalEntityPayload({
              supportingDocuments: [
                { fileName, type: 'Other', mimeType: 'application/pdf', file: 'JVBERi0=' },
              ],
            }),
          ),
        );
        expectRefusal(response, 400);
        const refusal = errorEnvelopeSchema.parse(response.body);
        // A NUL is refused in any field before the schema runs (server/http/json-parser.ts).
        if (fileName.includes('\u0000')) expect(refusal.message).toMatch(/NUL character/);
        else {
          expect(
            refusal.errors?.map((e) => e.field),
            fileName,
          ).toContain('supportingDocuments.0.fileName');
        }
      }
    });
  });
});

describe('client-update e-mails', () => {
  const updatePath = () =>
    `/api/v2/entities/legal-entities/${fixture.legalEntityId}/request-client-update`;
  const body = (overrides: Record<string, unknown>) =>
    JSON.stringify({
      recepientId: fixture.primaryContactId,
      emailSubject: 'Annual review',
      emailMessage: 'Please send your documents.',
      configId: 1,
      domain: 'portal.example.com',
      ...overrides,
    });

  test('CR/LF in the subject or the recipient, and domains that are not host names, are 400', async () => {
    await expectNoChange(async () => {
      for (const emailSubject of [
        'Hi\r\nBcc: x@evil.example',
        'Hi\nBcc: x@evil.example',
        'Hi\rX: y',
      ]) {
        const response = await postJson(updatePath(), body({ emailSubject }));
        expectRefusal(response, 400);
        expect(errorEnvelopeSchema.parse(response.body).errors?.map((e) => e.field)).toEqual([
          'emailSubject',
        ]);
      }
      for (const recepientId of [
        `${fixture.primaryContactId}\r\nBcc: x@evil.example`,
        'x@evil.example',
      ]) {
        expectRefusal(await postJson(updatePath(), body({ recepientId })), 400);
      }
      for (const domain of [
        'javascript:alert(1)',
        'https://portal.example.com',
        'portal.example.com/path',
        'portal.example.com:8443',
        'user@portal.example.com',
        'portal.example.com\r\nBcc: x@evil.example',
        '-portal.example.com',
        'portal..example.com',
        'portal example.com',
        '<script>.example.com',
        '',
        `${'a'.repeat(64)}.example.com`,
      ]) {
        const response = await postJson(updatePath(), body({ domain }));
        expectRefusal(response, 400);
        expect(
          errorEnvelopeSchema.parse(response.body).errors?.map((e) => e.field),
          domain,
        ).toEqual(['domain']);
      }
    });
  });

  test('the host-name schema accepts host names and lower-cases them', () => {
    expect(hostNameSchema.parse('Portal.Example.COM')).toBe('portal.example.com');
    expect(hostNameSchema.parse('localhost')).toBe('localhost');
    expect(hostNameSchema.safeParse('javascript:alert(1)').success).toBe(false);
  });

  test('a recipient name holding CR/LF in the database cannot add headers to the e-mail', async () => {
    const hostile = await insertLegalEntity(server.app.services.db, {
      primaryContact: {
        first_name: 'Eve\r\nBcc: spy@evil.example\r\nX-Injected: yes',
        last_name: 'Mallory',
      },
    });
    const response = await postJson(
      `/api/v2/entities/legal-entities/${hostile.legalEntityId}/request-client-update`,
      body({ recepientId: hostile.primaryContactId, emailMessage: '<img src=x onerror=alert(1)>' }),
    );
    expect(response.status).toBe(202);
    const { requestId } = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    const raw = await fs.readFile(path.join(server.dataDir, 'outbox', `${requestId}.eml`), 'utf8');
    const mail = readMime(raw.replace(/\r\n/g, '\n'));
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(raw).not.toMatch(/^(bcc|x-injected):/im);
    expect(mail.html).not.toContain('<img');
  });
});

describe('forged and broken JWTs', () => {
  async function claimsOfRealToken() {
    const token = await server.token();
    const [, payload = ''] = token.split('.');
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
  }

  test('alg none, a wrong key, an expired or future token, a tampered payload and garbage are 401', async () => {
    const claims = await claimsOfRealToken();
    const now = Math.floor(Date.now() / 1000);
    const wrongKey = new TextEncoder().encode('x'.repeat(48));
    const real = await server.token();
    const [header = '', payload = '', signature = ''] = real.split('.');
    const tampered = Buffer.from(
      JSON.stringify({ ...claims, name: 'Someone Else', exp: now + 86_400 }),
    ).toString('base64url');
    const forged = [
      new UnsecuredJWT(claims).encode(),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(wrongKey),
      await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(wrongKey),
      `${header}.${tampered}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -2)}AA`,
      `${header}.${payload}`,
      'not-a-jwt',
      '',
    ];
    for (const token of forged) {
      for (const pathname of ['/api/v2/entities', '/api/tokenvalid']) {
        const response = await call(pathname, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expectRefusal(response, 401);
      }
    }
  });

  test('tokens signed with the real key but expired or issued in the future are 401', async () => {
    const claims = await claimsOfRealToken();
    const now = Math.floor(Date.now() / 1000);
    const key = server.app.services.signingKey;
    const tokens = [
      await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key),
      await new SignJWT({ ...claims, iat: now + 3600, exp: now + 4800 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key),
      await new SignJWT({ ...claims, jti: 'never-issued' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key),
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key),
    ];
    for (const token of tokens) {
      const response = await call('/api/v2/entities', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expectRefusal(response, 401);
    }
  });
});

describe('request paths', () => {
  test.each(['/api/v2/%zz', '/api/v2/entities/legal-entities/%E0%A4%A', '/%zz'])(
    '%s, not valid percent-encoding, is the 400 envelope',
    async (target) => {
      const response = await server.request(target);
      expect(response.status).toBe(400);
      expect(errorEnvelopeSchema.parse(response.body).message).toBe(
        'The request path is not valid percent-encoding.',
      );
      expect(looksLikeLeak(response.text)).toBe(false);
    },
  );
});

describe('IDs in paths', () => {
  test.each([
    '/api/v2/entities/legal-entities/%00',
    '/api/v2/entities/natural-persons/a%00b',
    '/api/v2/documents/%00',
    '/api/v2/entities/%01/documents',
    '/api/v2/entities/legal-entities/%00/client-update-requests',
  ])('%s, a control character in an ID, is refused, never a 500', async (target) => {
    const response = await server.request(target);
    // The embedded server names the parameter (400); the gateway does not forward it (404).
    expect([400, 404]).toContain(response.status);
    errorEnvelopeSchema.parse(response.body);
  });
});

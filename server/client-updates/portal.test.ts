import fs from 'node:fs/promises';
import path from 'node:path';
import { auditEventPageSchema } from '../../contract/audit.ts';
import {
  clientResponseResponseSchema,
  clientUpdateAcceptedResponseSchema,
  clientUpdateHistoryResponseSchema,
} from '../../contract/client-updates.ts';
import { readMime } from '../testing/read-mime.ts';
import { insertLegalEntity, type InsertedLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.alloc(17),
]);
const DAY_MS = 86_400_000;

let server: TestServer;
let fixture: InsertedLegalEntity;
let clock = Date.parse('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer({
    mode: 'embedded',
    now: () => new Date(clock),
    env: { PORTAL_DOMAIN: 'portal.deployment.example', PORTAL_LINK_DAYS: '3' },
  });
  fixture = await insertLegalEntity(server.app.services.db);
});

afterAll(async () => {
  await server.close();
});

/** Sends a request and reads its token from the outbox, as the client's mailbox would. */
async function sendLink(): Promise<{ requestId: string; token: string }> {
  const response = await server.request(
    `/api/v2/entities/legal-entities/${fixture.legalEntityId}/request-client-update`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        recepientId: fixture.primaryContactId,
        emailSubject: 'Annual review',
        emailMessage: 'Please send your proof of address.',
        configId: 2,
        domain: 'portal.deployment.example',
      }),
    },
  );
  expect(response.status).toBe(202);
  const { requestId } = clientUpdateAcceptedResponseSchema.parse(response.body).data;
  const raw = await fs.readFile(path.join(server.dataDir, 'outbox', `${requestId}.eml`));
  const token = /\/portal\/([A-Za-z0-9_-]{43})/.exec(readMime(raw).text ?? '')?.[1];
  if (!token) throw new Error('no portal link in the e-mail');
  return { requestId, token };
}

async function openPage(token: string) {
  const response = await fetch(new URL(`/portal/${token}`, server.baseUrl));
  const html = await response.text();
  const nonce = /name="portal-nonce" content="([^"]+)"/.exec(html)?.[1];
  return { response, html, nonce };
}

function submit(
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(new URL(`/api/portal/${token}`, server.baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.baseUrl, ...headers },
    body: JSON.stringify(body),
  });
}

const aDocument = (file = PDF, fileName = 'address.pdf') => ({
  fileName,
  type: 'Proof of Address',
  file: file.toString('base64'),
});

async function stateOf(requestId: string) {
  const response = await server.request(
    `/api/v2/entities/legal-entities/${fixture.legalEntityId}/client-update-requests`,
  );
  const history = clientUpdateHistoryResponseSchema.parse(response.body).data;
  return history.find((record) => record.requestId === requestId)?.state;
}

async function documentCount(): Promise<number> {
  const row = await server.app.services.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('entity_id', '=', fixture.legalEntityId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const describeEmbedded = testMode === 'gateway' ? describe.skip : describe;

describeEmbedded('client portal', () => {
  test('the page has its own strict policy, no inline script, and opens the request once', async () => {
    const { requestId, token } = await sendLink();
    const { response, html, nonce } = await openPage(token);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toContain('/assets/');
    expect(html).toContain('Request supporting documents');
    expect(html).toContain('Please send your proof of address.');
    expect(nonce).toBeTruthy();
    expect(await stateOf(requestId)).toBe('opened');

    const events = await server.app.services.db
      .selectFrom('audit_events')
      .select(['actor', 'action'])
      .where('action', '=', 'client-update.open')
      .where('entity_id', '=', fixture.legalEntityId)
      .execute();
    expect(events).toEqual([
      { actor: `client:${fixture.primaryContactId}`, action: 'client-update.open' },
    ]);
    await openPage(token);
    const again = await server.app.services.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'client-update.open')
      .where('entity_id', '=', fixture.legalEntityId)
      .execute();
    expect(again).toHaveLength(1);

    // The entity's Activity names the client by the recipient's name, never by an ID alone.
    const activity = await server.request(
      `/api/v2/entities/${fixture.legalEntityId}/audit-events?kind=changes`,
    );
    const opened = auditEventPageSchema
      .parse(activity.body)
      .data.find((event) => event.action === 'client-update.open');
    expect(opened).toMatchObject({
      actor: `client:${fixture.primaryContactId}`,
      actorName: 'Ada Primary',
    });
  });

  test('a guessed or malformed token gets the same page as an expired one, 404', async () => {
    const guessed = await openPage('A'.repeat(43));
    const malformed = await openPage('not-a-token');
    expect(guessed.response.status).toBe(404);
    expect(malformed.response.status).toBe(404);
    expect(guessed.html).toContain('This link no longer works');
    expect(malformed.html).toBe(guessed.html);
    const response = await submit('A'.repeat(43), { documents: [aDocument()] });
    expect(response.status).toBe(403);
  });

  test('one submission: documents marked from the client, corrections kept; reuse is 404 and stores nothing', async () => {
    const { requestId, token } = await sendLink();
    const { nonce } = await openPage(token);
    const before = await documentCount();
    const response = await submit(
      token,
      {
        documents: [aDocument(), aDocument(PNG, 'passport.png')],
        contact: { email: 'ada.new@client.example', address: '2 New Street' },
      },
      { 'X-Portal-Nonce': nonce ?? '' },
    );
    expect(response.status).toBe(201);
    expect(await documentCount()).toBe(before + 2);
    expect(await stateOf(requestId)).toBe('submitted');

    const reused = await submit(
      token,
      { documents: [aDocument()] },
      { 'X-Portal-Nonce': nonce ?? '' },
    );
    expect(reused.status).toBe(404);
    expect(await documentCount()).toBe(before + 2);
    expect((await openPage(token)).response.status).toBe(404);

    const answer = await server.request(
      `/api/v2/entities/legal-entities/${fixture.legalEntityId}/client-update-requests/${requestId}/response`,
    );
    expect(answer.status).toBe(200);
    const data = clientResponseResponseSchema.parse(answer.body).data;
    expect(data.documents.map((document) => document.clientRequestId)).toEqual([
      requestId,
      requestId,
    ]);
    expect(data.documents.every((document) => !document.decision)).toBe(true);
    expect(data.contact).toEqual([
      { field: 'email', current: expect.any(String) as string, proposed: 'ada.new@client.example' },
      { field: 'address', current: null, proposed: '2 New Street' },
    ]);
    const submitted = await server.app.services.db
      .selectFrom('audit_events')
      .select('actor')
      .where('action', '=', 'client-update.submit')
      .execute();
    expect(submitted).toEqual([{ actor: `client:${fixture.primaryContactId}` }]);

    // Applying writes the record once; a second decision is 409.
    const contactUrl = `/api/v2/entities/legal-entities/${fixture.legalEntityId}/client-update-requests/${requestId}/response/contact`;
    const apply = await server.request(contactUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'apply' }),
    });
    expect(apply.status).toBe(200);
    const person = await server.app.services.db
      .selectFrom('natural_persons')
      .select(['email', 'address'])
      .where('entity_id', '=', fixture.primaryContactId)
      .executeTakeFirstOrThrow();
    expect(person).toEqual({ email: 'ada.new@client.example', address: '2 New Street' });
    const dismiss = await server.request(contactUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'dismiss' }),
    });
    expect(dismiss.status).toBe(409);
  });

  test('each attack gets its refusal and stores nothing', async () => {
    const { requestId, token } = await sendLink();
    const { nonce } = await openPage(token);
    const before = await documentCount();
    // One at a time: parallel 14 MB uploads on a loaded machine only test the machine.
    const cases: [string, () => Promise<Response>, number][] = [
      ['no nonce', () => submit(token, { documents: [aDocument()] }), 403],
      [
        'another origin',
        () =>
          submit(
            token,
            { documents: [aDocument()] },
            {
              'X-Portal-Nonce': nonce ?? '',
              Origin: 'https://attacker.example',
            },
          ),
        403,
      ],
      [
        'wrong type',
        () =>
          submit(
            token,
            { documents: [aDocument(Buffer.from('MZ\x90\x00 not a document'), 'x.pdf')] },
            { 'X-Portal-Nonce': nonce ?? '' },
          ),
        400,
      ],
      [
        'oversized',
        () =>
          submit(
            token,
            { documents: [aDocument(Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]))] },
            { 'X-Portal-Nonce': nonce ?? '' },
          ),
        400,
      ],
      [
        "another entity's documents",
        () =>
          submit(
            token,
            { documents: [aDocument()], entityId: 'someone-else', documentIds: ['x'] },
            { 'X-Portal-Nonce': nonce ?? '' },
          ),
        400,
      ],
      [
        'form post',
        () =>
          fetch(new URL(`/api/portal/${token}`, server.baseUrl), {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'documents=x',
          }),
        415,
      ],
    ];
    for (const [name, pending, status] of cases) {
      expect((await pending()).status, name).toBe(status);
    }
    expect(await documentCount()).toBe(before);
    expect(await stateOf(requestId)).toBe('opened');
  }, 60_000);

  test('the link works until PORTAL_LINK_DAYS after sending, to the millisecond', async () => {
    const sentAt = clock;
    const { requestId, token } = await sendLink();
    const { nonce } = await openPage(token);
    const expiresAt = sentAt + 3 * DAY_MS;
    try {
      clock = expiresAt - 1;
      expect((await openPage(token)).response.status).toBe(200);
      clock = expiresAt;
      expect((await openPage(token)).response.status).toBe(404);
      const late = await submit(
        token,
        { documents: [aDocument()] },
        { 'X-Portal-Nonce': nonce ?? '' },
      );
      expect(late.status).toBe(404);
      expect(await stateOf(requestId)).toBe('expired');
    } finally {
      clock = sentAt + 1000;
    }
  });

  test('a portal token opens no other door: every /api route answers 401 with it', async () => {
    const { token } = await sendLink();
    const document = (await (await fetch(new URL('/api/openapi.json', server.baseUrl))).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const doors = Object.entries(document.paths).flatMap(([pathname, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => (operation.security ?? []).length > 0)
        .map(([method, operation]) => ({ method: method.toUpperCase(), pathname, operation })),
    );
    expect(doors.length).toBeGreaterThan(20);
    for (const { method, pathname } of doors) {
      const url = new URL(pathname.replace(/\{[^}]+\}/g, 'x1'), server.baseUrl);
      for (const headers of [
        { Authorization: `Bearer ${token}` } as Record<string, string>,
        { Cookie: `token=${token}; session=${token}; kyc_session=${token}` },
        { 'X-API-Key': token },
      ]) {
        const response = await fetch(url, {
          method,
          headers: { ...headers, 'Content-Type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        });
        expect(response.status, `${method} ${pathname} ${Object.keys(headers)[0] ?? ''}`).toBe(401);
      }
    }
  }, 60_000);

  test('too many calls with one link are 429', async () => {
    const { token } = await sendLink();
    const statuses: number[] = [];
    for (let call = 0; call < 21; call += 1) {
      statuses.push((await openPage(token)).response.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

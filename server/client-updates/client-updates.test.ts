import fs from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';
import {
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  clientUpdateRecordResponseSchema,
  type ClientUpdateRequest,
} from '../../contract/client-updates.ts';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { readMime } from '../testing/read-mime.ts';
import { clientUpdatesRepository } from './repository.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';

const PORTAL_DOMAIN = 'portal.deployment.example';
/** The other portals the tests' links point to; any other host is refused (portal-domains.test.ts). */
const PORTAL_DOMAINS = 'portal.client.example, clients.example.org';
const MAIL_FROM = 'KYC Desk Reviews <reviews@kyc-desk.example>';

interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
}

interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth needed) that keeps what it receives. */
async function startSmtpServer(
  behaviour: { rejectRcpt?: string; rejectData?: string; rejectAuth?: boolean } = {},
): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      // Echoes the credentials, as a careless server might, to prove they never reach the client.
      if (behaviour.rejectAuth)
        callback(new Error(`Bad login ${auth.username}/${auth.password ?? ''}`));
      else callback(null, { user: 'anyone' });
    },
    onRcptTo(_address, _session, callback) {
      if (behaviour.rejectRcpt) {
        callback(Object.assign(new Error(behaviour.rejectRcpt), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (behaviour.rejectData) {
          callback(Object.assign(new Error(behaviour.rejectData), { responseCode: 554 }));
          return;
        }
        messages.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port that nothing listens on: bound, read, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** node:http, because fetch refuses to send a body with GET. */
async function rawRequest(
  server: TestServer,
  method: 'GET' | 'POST',
  pathname: string,
  options: { body?: string; contentType?: string; auth?: 'apiKey' | 'token' } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.body !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(options.body));
  }
  Object.assign(headers, await server.authHeaders(options.auth ?? 'apiKey'));
  const url = new URL(pathname, server.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

function requestPath(entityId: string): string {
  return `/api/v2/entities/legal-entities/${entityId}/request-client-update`;
}

function historyPath(entityId: string): string {
  return `/api/v2/entities/legal-entities/${entityId}/client-update-requests`;
}

function validBody(recepientId: string, overrides: Partial<ClientUpdateRequest> = {}) {
  return {
    recepientId,
    emailSubject: 'Please review your company information',
    emailMessage: 'Hello,\n\nPlease confirm your registered address.\n\nThank you.',
    configId: 1,
    domain: 'portal.client.example',
    ...overrides,
  };
}

async function postJson(server: TestServer, pathname: string, body: unknown) {
  return server.request(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function historyOf(server: TestServer, entityId: string) {
  const response = await server.request(historyPath(entityId));
  expect(response.status).toBe(200);
  return clientUpdateHistoryResponseSchema.parse(response.body).data;
}

function errorOf(response: { body: unknown }) {
  return errorEnvelopeSchema.parse(response.body);
}

describe('client updates over SMTP', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM, PORTAL_DOMAIN, PORTAL_DOMAINS },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('lists the configurations with the deployment portal domain', async () => {
    const response = await server.request('/api/v2/client-update-configs');
    expect(response.status).toBe(200);
    const configs = clientUpdateConfigListResponseSchema.parse(response.body).data;
    expect(configs.map((config) => config.configId)).toEqual([1, 2]);
    expect(configs.map((config) => config.name)).toEqual([
      'Request updated information',
      'Request supporting documents',
    ]);
    for (const config of configs) {
      expect(config.defaultDomain).toBe(PORTAL_DOMAIN);
      expect(config.defaultSubject.length).toBeGreaterThan(0);
      expect(config.defaultMessage.length).toBeGreaterThan(0);
    }
  });

  it('documents GET and POST with the same JSON body in the OpenAPI document', async () => {
    const response = await server.request('/api/openapi.json', { auth: 'none' });
    expect(response.status).toBe(200);
    const document = response.body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const operations = document.paths['/api/v2/entities/legal-entities/{id}/request-client-update'];
    expect(Object.keys(operations ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(operations?.get?.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(operations?.get?.requestBody).toEqual(operations?.post?.requestBody);
    expect(document.paths['/api/v2/client-update-configs']).toHaveProperty('get');
    expect(
      document.paths['/api/v2/entities/legal-entities/{id}/client-update-requests'],
    ).toHaveProperty('get');
  });

  it('refuses callers without credentials', async () => {
    const response = await server.request('/api/v2/client-update-configs', { auth: 'none' });
    expect(response.status).toBe(401);
  });

  it('sends the e-mail over SMTP with the recipient, subject, link and escaped HTML', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db, {
      primaryContact: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@client.example' },
    });
    const before = smtp.messages.length;
    const response = await postJson(
      server,
      requestPath(legalEntityId),
      validBody(primaryContactId, {
        emailSubject: 'Your annual review',
        emailMessage: 'Dear Grace,\n<script>alert("x")</script> & more\nLine three',
      }),
    );
    expect(response.status).toBe(202);
    const accepted = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    expect(accepted.recipientEmail).toBe('grace@client.example');

    expect(smtp.messages).toHaveLength(before + 1);
    const received = smtp.messages.at(-1);
    if (!received) throw new Error('no message received');
    expect(received.rcptTo).toEqual(['grace@client.example']);
    expect(received.mailFrom).toBe('reviews@kyc-desk.example');

    const mail = readMime(received.raw);
    const link = `https://portal.client.example/client-update/${accepted.requestId}`;
    expect(mail.headers.get('subject')).toBe('Your annual review');
    expect(mail.headers.get('to')).toContain('Grace Hopper');
    expect(mail.headers.get('to')).toContain('<grace@client.example>');
    expect(mail.headers.get('from')).toContain('reviews@kyc-desk.example');
    expect(mail.text).toContain('<script>alert("x")</script> & more');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; more');
    expect(mail.html).toContain('Dear Grace,<br>');

    const [record] = await historyOf(server, legalEntityId);
    expect(record).toMatchObject({
      requestId: accepted.requestId,
      entityId: legalEntityId,
      recipientId: primaryContactId,
      recipientEmail: 'grace@client.example',
      configId: 1,
      subject: 'Your annual review',
      domain: 'portal.client.example',
      status: 'sent',
      error: null,
      requestedBy: server.account.username,
      sentAt: accepted.sentAt,
    });
    // The console shows who asked by the account's name, read when the history is.
    await server.app.services.db
      .updateTable('accounts')
      .set({ display_name: 'Rhea Reviewer' })
      .where('username', '=', server.account.username)
      .execute();
    const [named] = await historyOf(server, legalEntityId);
    // A gateway knows only the username: the accounts are the identity service's.
    expect(named?.requestedByName).toBe(server.mode === 'gateway' ? null : 'Rhea Reviewer');
    // The server is shared by the file's tests: the account gets its own name back.
    await server.app.services.db
      .updateTable('accounts')
      .set({ display_name: server.account.username })
      .where('username', '=', server.account.username)
      .execute();
  });

  it('accepts GET with a JSON body, as the interface specifies, for any linked person', async () => {
    const { legalEntityId, directorId } = await insertLegalEntity(server.app.services.db, {
      director: { first_name: 'Dora', last_name: 'Director', email: 'dora@client.example' },
    });
    const before = smtp.messages.length;
    const response = await rawRequest(server, 'GET', requestPath(legalEntityId), {
      contentType: 'application/json',
      body: JSON.stringify(validBody(directorId, { configId: 2, emailSubject: 'Documents' })),
      auth: 'token',
    });
    expect(response.status).toBe(202);
    const accepted = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    expect(accepted.recipientEmail).toBe('dora@client.example');
    expect(smtp.messages).toHaveLength(before + 1);
    expect(smtp.messages.at(-1)?.rcptTo).toEqual(['dora@client.example']);

    const [record] = await historyOf(server, legalEntityId);
    expect(record).toMatchObject({
      requestId: accepted.requestId,
      configId: 2,
      subject: 'Documents',
      status: 'sent',
      requestedBy: server.account.username,
    });
  });

  it('parses and rejects a GET body exactly as a POST body', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const tooLarge = JSON.stringify(
      validBody(primaryContactId, { emailMessage: 'x'.repeat(1100 * 1024) }),
    );
    const cases: { name: string; body?: string; contentType?: string; status: number }[] = [
      {
        name: 'invalid JSON',
        body: '{"recepientId":',
        contentType: 'application/json',
        status: 400,
      },
      { name: 'empty JSON body', body: '', contentType: 'application/json', status: 400 },
      { name: 'no body at all', status: 400 },
      {
        name: 'form body',
        body: 'configId=1',
        contentType: 'application/x-www-form-urlencoded',
        status: 415,
      },
      { name: 'text body', body: '{}', contentType: 'text/plain', status: 415 },
      { name: 'body without content type', body: '{}', status: 415 },
      { name: 'body over the limit', body: tooLarge, contentType: 'application/json', status: 413 },
      {
        name: 'subject with a line break',
        body: JSON.stringify(
          validBody(primaryContactId, { emailSubject: 'Hi\r\nBcc: x@evil.example' }),
        ),
        contentType: 'application/json',
        status: 400,
      },
    ];
    const before = smtp.messages.length;
    for (const testCase of cases) {
      const options = {
        ...(testCase.body === undefined ? {} : { body: testCase.body }),
        ...(testCase.contentType ? { contentType: testCase.contentType } : {}),
      };
      const viaGet = await rawRequest(server, 'GET', requestPath(legalEntityId), options);
      const viaPost = await rawRequest(server, 'POST', requestPath(legalEntityId), options);
      expect({ name: testCase.name, status: viaGet.status }).toEqual({
        name: testCase.name,
        status: testCase.status,
      });
      expect({ name: testCase.name, body: viaGet.body }).toEqual({
        name: testCase.name,
        body: viaPost.body,
      });
      expect(errorOf(viaGet).code).toBe(testCase.status);
    }
    expect(smtp.messages).toHaveLength(before);
    expect(await historyOf(server, legalEntityId)).toEqual([]);
  });

  it('rejects a subject with CR/LF and neither sends nor records anything', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const before = smtp.messages.length;
    for (const subject of ['Hello\r\nBcc: someone@evil.example', 'Hello\nthere', 'Hello\rthere']) {
      const response = await postJson(
        server,
        requestPath(legalEntityId),
        validBody(primaryContactId, { emailSubject: subject }),
      );
      expect(response.status).toBe(400);
      expect(errorOf(response).errors?.map((error) => error.field)).toEqual(['emailSubject']);
    }
    expect(smtp.messages).toHaveLength(before);
    expect(await historyOf(server, legalEntityId)).toEqual([]);
  });

  it('checks subject and message lengths and the domain', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const invalid: [Partial<ClientUpdateRequest>, string][] = [
      [{ emailSubject: '' }, 'emailSubject'],
      [{ emailSubject: 's'.repeat(201) }, 'emailSubject'],
      [{ emailMessage: '' }, 'emailMessage'],
      [{ emailMessage: 'm'.repeat(10_001) }, 'emailMessage'],
      [{ domain: 'https://portal.client.example' }, 'domain'],
      [{ domain: 'portal.client.example/path' }, 'domain'],
      [{ configId: 1.5 }, 'configId'],
    ];
    for (const [overrides, field] of invalid) {
      const response = await postJson(
        server,
        requestPath(legalEntityId),
        validBody(primaryContactId, overrides),
      );
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(errorOf(response).errors?.map((error) => error.field)).toEqual([field]);
    }
    const longest = await postJson(
      server,
      requestPath(legalEntityId),
      validBody(primaryContactId, {
        emailSubject: 's'.repeat(200),
        emailMessage: 'm'.repeat(10_000),
      }),
    );
    expect(longest.status).toBe(202);
  });

  it('answers 400 on recepientId when the person is not linked to the legal entity', async () => {
    const { legalEntityId } = await insertLegalEntity(server.app.services.db);
    const other = await insertLegalEntity(server.app.services.db);
    const unlinked = await insertNaturalPerson(server.app.services.db);
    const before = smtp.messages.length;
    for (const recepientId of [unlinked, other.primaryContactId, other.legalEntityId, 'nobody']) {
      const response = await postJson(server, requestPath(legalEntityId), validBody(recepientId));
      expect(response.status).toBe(400);
      expect(errorOf(response).errors).toEqual([
        { field: 'recepientId', message: expect.any(String) as string },
      ]);
    }
    expect(smtp.messages).toHaveLength(before);
    expect(await historyOf(server, legalEntityId)).toEqual([]);
  });

  it('answers 400 on configId for an unknown configuration', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const response = await postJson(
      server,
      requestPath(legalEntityId),
      validBody(primaryContactId, { configId: 99 }),
    );
    expect(response.status).toBe(400);
    const error = errorOf(response);
    expect(error.errors?.map((fieldError) => fieldError.field)).toEqual(['configId']);
    expect(error.message).toContain('configId');
    expect(await historyOf(server, legalEntityId)).toEqual([]);
  });

  it('answers 409 when the recipient has no e-mail address', async () => {
    const { legalEntityId, directorId } = await insertLegalEntity(server.app.services.db, {
      director: { email: null },
    });
    const response = await postJson(server, requestPath(legalEntityId), validBody(directorId));
    expect(response.status).toBe(409);
    expect(errorOf(response).errors?.map((error) => error.field)).toEqual(['recepientId']);
    expect(await historyOf(server, legalEntityId)).toEqual([]);
  });

  it('answers 404 for an unknown legal entity, on request and on history', async () => {
    const person = await insertNaturalPerson(server.app.services.db);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const response = await postJson(server, requestPath(unknown), validBody(person));
    expect(response.status).toBe(404);
    expect(errorOf(response).message).toContain(unknown);
    expect((await server.request(historyPath(unknown))).status).toBe(404);
    // A natural person's id is not a legal entity either.
    expect((await server.request(historyPath(person))).status).toBe(404);
  });
});

describe('client updates when the mail server fails', () => {
  const failures: [string, () => Promise<{ url: string; close(): Promise<void> }>, RegExp][] = [
    [
      'rejects the recipient',
      () => startSmtpServer({ rejectRcpt: 'Mailbox unavailable for policy reasons' }),
      /Mailbox unavailable for policy reasons/,
    ],
    [
      'rejects the message data',
      () => startSmtpServer({ rejectData: 'Message refused by content filter' }),
      /Message refused by content filter/,
    ],
    [
      'is not listening',
      async () => ({
        url: `smtp://127.0.0.1:${await closedPort()}`,
        close: () => Promise.resolve(),
      }),
      /ECONNREFUSED/,
    ],
  ];

  it.each(failures)(
    'answers 502 and records a failed request when the server %s',
    async (_name, start, reason) => {
      const smtp = await start();
      const server = await startTestServer({
        env: { SMTP_URL: smtp.url, MAIL_FROM, PORTAL_DOMAINS },
      });
      try {
        const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
        const response = await postJson(
          server,
          requestPath(legalEntityId),
          validBody(primaryContactId),
        );
        expect(response.status).toBe(502);
        const error = errorOf(response);
        expect(error.message).toMatch(/^The mail server did not accept the message: /);
        expect(error.message).toMatch(reason);

        const records = await historyOf(server, legalEntityId);
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          recipientId: primaryContactId,
          status: 'failed',
          sentAt: null,
          requestedBy: server.account.username,
        });
        expect(records[0]?.error).toMatch(reason);
        const outbox = path.join(server.dataDir, 'outbox');
        await expect(fs.readdir(outbox)).rejects.toThrow();
      } finally {
        await server.close();
        await smtp.close();
      }
    },
  );

  it('never puts the SMTP password into the recorded error or the response', async () => {
    const smtp = await startSmtpServer({ rejectAuth: true });
    const password = 'S3cret-Pa55word';
    const server = await startTestServer({
      env: {
        SMTP_URL: smtp.url.replace('smtp://', `smtp://mailer:${password}@`),
        MAIL_FROM,
        PORTAL_DOMAINS,
      },
    });
    try {
      const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
      const response = await postJson(
        server,
        requestPath(legalEntityId),
        validBody(primaryContactId),
      );
      expect(response.status).toBe(502);
      expect(response.text).not.toContain(password);
      const [record] = await historyOf(server, legalEntityId);
      expect(record?.status).toBe('failed');
      expect(record?.error).toBeTruthy();
      expect(record?.error).not.toContain(password);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});

describe.skipIf(testMode === 'gateway')('sending a failed request again (embedded mode)', () => {
  it('resends under the same id once the mail server is back, and never twice', async () => {
    const behaviour: { rejectData?: string } = { rejectData: 'Try again later' };
    const smtp = await startSmtpServer(behaviour);
    const server = await startTestServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM, PORTAL_DOMAINS },
    });
    try {
      const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
      const first = await postJson(server, requestPath(legalEntityId), validBody(primaryContactId));
      expect(first.status).toBe(502);
      const [failed] = await historyOf(server, legalEntityId);
      const resendPath = `${historyPath(legalEntityId)}/${failed?.requestId ?? ''}/resend`;

      const stillDown = await server.request(resendPath, { method: 'POST' });
      expect(stillDown.status).toBe(502);
      expect(errorOf(stillDown).message).toMatch(/Try again later/);
      expect(await historyOf(server, legalEntityId)).toMatchObject([
        { status: 'failed', state: 'failed', expiresAt: null },
      ]);

      behaviour.rejectData = undefined;
      const resent = await server.request(resendPath, { method: 'POST' });
      expect(resent.status, resent.text).toBe(202);
      const accepted = clientUpdateAcceptedResponseSchema.parse(resent.body).data;
      expect(accepted.requestId).toBe(failed?.requestId);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]?.raw.toString('utf8').toLowerCase()).toContain(
        `x-kyc-desk-request-id: ${failed?.requestId ?? ''}`,
      );
      const records = await historyOf(server, legalEntityId);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'sent', error: null, sentAt: accepted.sentAt });

      // A second click (or a lost answer's retry) sends nothing and answers as before.
      const again = await server.request(resendPath, { method: 'POST' });
      expect(again.status).toBe(202);
      expect(clientUpdateAcceptedResponseSchema.parse(again.body).data).toEqual(accepted);
      expect(smtp.messages).toHaveLength(1);

      const unknown = await server.request(`${historyPath(legalEntityId)}/no-such-request/resend`, {
        method: 'POST',
      });
      expect(unknown.status).toBe(404);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});

describe('client updates without SMTP_URL', () => {
  let server: TestServer;

  beforeAll(async () => {
    // One second per reading of the clock, so creation times never tie.
    let tick = Date.now();
    server = await startTestServer({
      env: { MAIL_FROM, PORTAL_DOMAIN, PORTAL_DOMAINS },
      now: () => new Date((tick += 1000)),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes a complete .eml file to the outbox', async () => {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db, {
      primaryContact: { first_name: 'Alan', last_name: 'Turing', email: 'alan@client.example' },
    });
    const response = await postJson(
      server,
      requestPath(legalEntityId),
      validBody(primaryContactId, {
        emailSubject: 'Outbox check',
        emailMessage: 'Please upload <b>two</b> documents.',
        domain: 'clients.example.org',
      }),
    );
    expect(response.status).toBe(202);
    const accepted = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    expect(accepted.recipientEmail).toBe('alan@client.example');

    const file = path.join(server.dataDir, 'outbox', `${accepted.requestId}.eml`);
    const raw = await fs.readFile(file);
    expect(raw.toString()).toMatch(/\r\n\r\n/);
    const mail = readMime(raw);
    const link = `https://clients.example.org/client-update/${accepted.requestId}`;
    expect(mail.headers.get('from')).toBe(MAIL_FROM);
    expect(mail.headers.get('to')).toContain('Alan Turing');
    expect(mail.headers.get('to')).toContain('<alan@client.example>');
    expect(mail.headers.get('subject')).toBe('Outbox check');
    expect(mail.headers.get('mime-version')).toBe('1.0');
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative; boundary=/);
    expect(mail.headers.get('x-kyc-desk-request-id')).toBe(accepted.requestId);
    expect(mail.text).toContain('Please upload <b>two</b> documents.');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('Please upload &#60;b&#62;two&#60;/b&#62; documents.');
    expect(mail.html).toContain(`href="${link}"`);

    const [record] = await historyOf(server, legalEntityId);
    expect(record).toMatchObject({ requestId: accepted.requestId, status: 'sent', error: null });
  });

  it('lists an entity’s requests newest first', async () => {
    const { legalEntityId, primaryContactId, directorId } = await insertLegalEntity(
      server.app.services.db,
    );
    const subjects = ['First request', 'Second request', 'Third request'];
    const requestIds: string[] = [];
    for (const [index, subject] of subjects.entries()) {
      const recipient = index % 2 === 0 ? primaryContactId : directorId;
      const response = await postJson(
        server,
        requestPath(legalEntityId),
        validBody(recipient, { emailSubject: subject }),
      );
      expect(response.status).toBe(202);
      requestIds.push(clientUpdateAcceptedResponseSchema.parse(response.body).data.requestId);
    }
    const records = await historyOf(server, legalEntityId);
    expect(records.map((record) => record.subject)).toEqual([...subjects].reverse());
    expect(records.map((record) => record.requestId)).toEqual([...requestIds].reverse());
    expect(records.map((record) => record.recipientId)).toEqual([
      primaryContactId,
      directorId,
      primaryContactId,
    ]);
  });
});

describe('request states', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { MAIL_FROM, PORTAL_DOMAIN, PORTAL_DOMAINS } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function sentRequest() {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const response = await postJson(
      server,
      requestPath(legalEntityId),
      validBody(primaryContactId),
    );
    expect(response.status).toBe(202);
    const { requestId } = clientUpdateAcceptedResponseSchema.parse(response.body).data;
    return { legalEntityId, requestId };
  }

  const reviewPath = (entityId: string, requestId: string) =>
    `/api/v2/entities/legal-entities/${entityId}/client-update-requests/${requestId}/review`;

  it('shows a delivered request as sent, with the time its link lapses', async () => {
    const { legalEntityId, requestId } = await sentRequest();
    const [record] = await historyOf(server, legalEntityId);
    expect(record).toMatchObject({
      requestId,
      status: 'sent',
      state: 'sent',
      openedAt: null,
      submittedAt: null,
      reviewedAt: null,
      reviewedBy: null,
    });
    expect(Date.parse(record?.expiresAt ?? '') - Date.parse(record?.sentAt ?? '')).toBe(
      7 * 86_400_000,
    );
  });

  it('refuses to mark reviewed a request the client has not answered (409), and changes nothing', async () => {
    const { legalEntityId, requestId } = await sentRequest();
    const response = await server.request(reviewPath(legalEntityId, requestId), { method: 'POST' });
    expect(response.status).toBe(409);
    expect(errorOf(response).message).toBe(
      'Only a submitted response can be marked reviewed; this request is sent.',
    );
    expect((await historyOf(server, legalEntityId))[0]?.state).toBe('sent');
    const unknown = await server.request(reviewPath(legalEntityId, crypto.randomUUID()), {
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
  });

  it.skipIf(testMode === 'gateway')(
    'marks a submitted response reviewed once, with who and when, in the entity’s activity',
    async () => {
      const { legalEntityId, requestId } = await sentRequest();
      const repository = clientUpdatesRepository(server.app.services.db);
      const at = new Date().toISOString();
      expect(await repository.markOpened(requestId, at)).toBe(true);
      expect(await repository.markOpened(requestId, at)).toBe(false);
      expect((await historyOf(server, legalEntityId))[0]).toMatchObject({
        state: 'opened',
        openedAt: at,
      });
      expect(await repository.markSubmitted(requestId, at)).toBe(true);
      expect((await historyOf(server, legalEntityId))[0]).toMatchObject({
        state: 'submitted',
        submittedAt: at,
      });

      const first = await server.request(reviewPath(legalEntityId, requestId), { method: 'POST' });
      expect(first.status).toBe(200);
      const reviewed = clientUpdateRecordResponseSchema.parse(first.body).data;
      expect(reviewed).toMatchObject({ state: 'reviewed', reviewedBy: server.account.username });
      expect(reviewed.reviewedAt).not.toBeNull();
      const again = await server.request(reviewPath(legalEntityId, requestId), { method: 'POST' });
      expect(clientUpdateRecordResponseSchema.parse(again.body).data).toEqual(reviewed);

      const activity = await server.request(
        `/api/v2/entities/${legalEntityId}/audit-events?kind=changes`,
      );
      const reviews = auditEventPageSchema
        .parse(activity.body)
        .data.filter((event) => event.action === 'client-update.review');
      expect(reviews.map((event) => event.detail.changed)).toEqual([false, true]);
    },
  );
});

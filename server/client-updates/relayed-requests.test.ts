import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
} from '../../contract/client-updates.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { runAdmin } from '../admin/run.ts';
import { createApp, type App } from '../app.ts';
import { loadConfig } from '../env.ts';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testMode } from '../testing/harness.ts';
import {
  sendJson,
  startRecordingUpstream,
  type RecordedRequest,
  type RecordingUpstream,
} from '../testing/recording-upstream.ts';

/**
 * Gateway mode's store of client updates (gateway/relayed-client-updates.ts) behind the same
 * plugin as embedded mode, in front of a stand-in identity service whose answers each test sets:
 * what the harness's gateway (an embedded upstream) cannot show. It starts its own gateway, so the
 * server-gateway project skips it.
 */
const PORTAL_DOMAIN = 'portal.bank.example';
const PORTAL_DOMAINS = 'clients.bank.example';

/** A JWT as the identity service issues it; the gateway reads its claims once the service confirms it. */
function jwtOf(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp: 4_102_444_800, ...claims })}.c2ln`;
}
const REVIEWER_TOKEN = jwtOf({ sub: 'u-17', name: 'Grace Reviewer' });
const SUBJECT_ONLY_TOKEN = jwtOf({ sub: 'u-18' });
/** A token the identity service accepts but the gateway cannot read as a JWT. */
const OPAQUE_TOKEN = 'opaque-session-token';

describe.skipIf(testMode === 'gateway')('the gateway’s client-update records', () => {
  let upstream: RecordingUpstream;
  let gateway: App;
  let gatewayUrl: string;
  let dataDir: string;
  let databaseUrl: string | undefined;
  /** What the stand-in identity service answers to everything but the token check. */
  let answer: (request: RecordedRequest) => { status: number; body: unknown };

  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    upstream.handle((request, response) => {
      if (request.url === '/api/tokenvalid') {
        const valid = [REVIEWER_TOKEN, SUBJECT_ONLY_TOKEN, OPAQUE_TOKEN].some(
          (token) => request.headers.authorization === `Bearer ${token}`,
        );
        sendJson(response, valid ? 200 : 401, valid ? { isTokenValid: true } : { message: 'no' });
        return;
      }
      const { status, body } = answer(request);
      sendJson(response, status, body);
    });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-gateway-records-'));
    databaseUrl = await newTestDatabaseUrl();
    gateway = await createApp(
      {
        ...loadConfig({
          DATA_DIR: dataDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          LOG_LEVEL: 'silent',
          KYC_UPSTREAM_URL: upstream.url,
          KYC_UPSTREAM_API_KEY: 'upstream-key',
          PORTAL_DOMAIN,
          PORTAL_DOMAINS,
        }),
        staticDir: undefined,
      },
      { logger: false },
    );
    gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await gateway.close();
    await upstream.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropTestDatabaseUrl(databaseUrl);
  });

  beforeEach(() => {
    upstream.requests.length = 0;
    answer = () => ({ status: 200, body: { code: 200, status: 'success', message: '', data: {} } });
  });

  async function admin(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(argv, {
      env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  }

  async function call(pathAndQuery: string, init: RequestInit & { token?: string | null } = {}) {
    const { token = REVIEWER_TOKEN, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    const response = await fetch(gatewayUrl + pathAndQuery, { ...rest, headers });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as unknown };
  }

  const requestPath = (entityId: string) =>
    `/api/v2/entities/legal-entities/${entityId}/request-client-update`;
  const historyPath = (entityId: string) =>
    `/api/v2/entities/legal-entities/${entityId}/client-update-requests`;

  function requestUpdate(entityId: string, subject: string, token?: string) {
    return call(requestPath(entityId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        recepientId: 'person-1',
        emailSubject: subject,
        emailMessage: 'Please check your details.',
        configId: 40,
        domain: 'clients.bank.example',
      }),
      ...(token ? { token } : {}),
    });
  }

  async function historyOf(entityId: string) {
    const response = await call(historyPath(entityId));
    expect(response.status).toBe(200);
    return clientUpdateHistoryResponseSchema.parse(response.body).data;
  }

  /** The identity service accepts the request and names the recipient's address. */
  function acceptingUpstream(recipientEmail: string | undefined) {
    let count = 0;
    answer = (request) => {
      if (request.method === 'GET' && request.url.endsWith('/request-client-update')) {
        count += 1;
        const data = {
          requestId: `upstream-${String(count)}`,
          ...(recipientEmail ? { recipientEmail } : {}),
          sentAt: '2026-03-01T10:00:00Z',
        };
        return { status: 202, body: { code: 202, status: 'success', message: '', data } };
      }
      return { status: 200, body: { code: 200, status: 'success', message: '', data: {} } };
    };
  }

  describe('configurations kept by the gateway', () => {
    it('answers from its own database, as set with the admin CLI, without asking upstream', async () => {
      const set = await admin(
        'client-config:set',
        '40',
        '--name',
        'Annual review',
        '--subject',
        'Your annual review',
        '--message',
        'Hello,\n\nPlease review your details.',
        '--description',
        'The bank portal’s review journey',
      );
      expect(set).toMatchObject({ code: 0, stderr: '' });
      expect(set.stdout).toContain('Added the e-mail configuration 40.');
      // The embedded defaults (configIds 1 and 2) mean nothing to the real portal.
      expect((await admin('client-config:remove', '1')).code).toBe(0);
      expect((await admin('client-config:remove', '2')).code).toBe(0);

      const response = await call('/api/v2/client-update-configs');
      expect(response.status).toBe(200);
      const body = clientUpdateConfigListResponseSchema.parse(response.body);
      expect(body.data).toEqual([
        {
          configId: 40,
          name: 'Annual review',
          description: 'The bank portal’s review journey',
          defaultSubject: 'Your annual review',
          defaultMessage: 'Hello,\n\nPlease review your details.',
          defaultDomain: PORTAL_DOMAIN,
        },
      ]);
      expect(body.allowedDomains).toEqual([PORTAL_DOMAIN, PORTAL_DOMAINS]);
      expect(upstream.entityRequests()).toEqual([]);
    });

    it('asks for the caller’s token exactly as forwarded routes do', async () => {
      const missing = await call('/api/v2/client-update-configs', { token: null });
      expect(missing.status).toBe(401);
      const refused = await call('/api/v2/client-update-configs', { token: jwtOf({ sub: 'x' }) });
      expect(refused.status).toBe(401);
      expect(errorEnvelopeSchema.parse(refused.body).message).toMatch(/Sign in again/);
      const history = await call(historyPath(crypto.randomUUID()), { token: null });
      expect(history.status).toBe(401);
      expect(upstream.entityRequests()).toEqual([]);
    });
  });

  describe('request history kept by the gateway', () => {
    it('forwards a request as GET with its JSON body and records it as sent, with who asked', async () => {
      acceptingUpstream('ceo@client.example');
      const entityId = crypto.randomUUID();
      const response = await requestUpdate(entityId, 'Annual review');
      expect(response.status).toBe(202);
      // The legal entity is asked of the identity service first, as every entity route does.
      const [lookup, forwarded, ...more] = upstream.entityRequests();
      expect(more).toEqual([]);
      expect(lookup).toMatchObject({
        method: 'GET',
        url: `/api/v2/entities/legal-entities/${entityId}`,
      });
      expect(forwarded?.method).toBe('GET');
      expect(forwarded?.url).toBe(requestPath(entityId));
      expect(forwarded?.headers['x-api-key']).toBe('upstream-key');
      expect(JSON.parse(forwarded?.body.toString('utf8') ?? '')).toMatchObject({ configId: 40 });

      const [record, ...others] = await historyOf(entityId);
      expect(others).toEqual([]);
      expect(record).toEqual({
        requestId: 'upstream-1',
        entityId,
        recipientId: 'person-1',
        recipientEmail: 'ceo@client.example',
        configId: 40,
        subject: 'Annual review',
        domain: 'clients.bank.example',
        status: 'sent',
        error: null,
        requestedBy: 'Grace Reviewer',
        requestedByName: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        sentAt: '2026-03-01T10:00:00Z',
        // The link lapsed seven days after the service sent it, long before this test ran.
        state: 'expired',
        openedAt: null,
        submittedAt: null,
        reviewedAt: null,
        reviewedBy: null,
        expiresAt: '2026-03-08T10:00:00.000Z',
      });
    });

    it('records an empty recipient address when the answer has none, and `sub` without `name`', async () => {
      acceptingUpstream(undefined);
      const entityId = crypto.randomUUID();
      expect((await requestUpdate(entityId, 'No address', SUBJECT_ONLY_TOKEN)).status).toBe(202);
      const [record] = await historyOf(entityId);
      expect(record).toMatchObject({ recipientEmail: '', requestedBy: 'u-18', status: 'sent' });
    });

    it('names a token that is not a JWT by a fingerprint of it, never the token', async () => {
      acceptingUpstream('ceo@client.example');
      const entityId = crypto.randomUUID();
      expect((await requestUpdate(entityId, 'Opaque', OPAQUE_TOKEN)).status).toBe(202);
      const fingerprint = crypto
        .createHash('sha256')
        .update(OPAQUE_TOKEN)
        .digest('hex')
        .slice(0, 12);
      const [record] = await historyOf(entityId);
      expect(record).toMatchObject({ requestedBy: `session-${fingerprint}`, status: 'sent' });
    });

    it('records a failed delivery with the identity service’s message and passes its answer on', async () => {
      const refusal = 'The mail server did not accept the message: 550 Mailbox unavailable';
      answer = (request) =>
        request.url.endsWith('/request-client-update')
          ? { status: 502, body: { code: 502, status: 'error', message: refusal, data: [] } }
          : { status: 200, body: { code: 200, status: 'success', message: '', data: {} } };
      const entityId = crypto.randomUUID();
      const response = await requestUpdate(entityId, 'Will fail');
      expect(response.status).toBe(502);
      expect(errorEnvelopeSchema.parse(response.body).message).toBe(refusal);
      const [record] = await historyOf(entityId);
      expect(record).toMatchObject({
        state: 'failed',
        expiresAt: null,
        status: 'failed',
        error: refusal,
        sentAt: null,
        recipientEmail: '',
        subject: 'Will fail',
        requestedBy: 'Grace Reviewer',
        requestedByName: null,
      });
    });

    it('records nothing when the request itself is refused (4xx), upstream or by the gateway', async () => {
      answer = (request) =>
        request.url.endsWith('/request-client-update')
          ? {
              status: 400,
              body: { code: 400, status: 'error', message: 'Unknown recipient.', data: [] },
            }
          : { status: 200, body: { code: 200, status: 'success', message: '', data: {} } };
      const entityId = crypto.randomUUID();
      expect((await requestUpdate(entityId, 'Refused upstream')).status).toBe(400);
      const offPortal = await call(requestPath(entityId), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          recepientId: 'person-1',
          emailSubject: 'Elsewhere',
          emailMessage: 'Hello',
          configId: 40,
          domain: 'evil.example',
        }),
      });
      expect(offPortal.status).toBe(400);
      expect(errorEnvelopeSchema.parse(offPortal.body).message).toMatch(/domain/);
      expect(await historyOf(entityId)).toEqual([]);
      // The off-portal link never reached the identity service.
      expect(
        upstream
          .entityRequests()
          .filter((request) => request.url.endsWith('/request-client-update')),
      ).toHaveLength(1);
    });

    it('lists an entity’s requests newest first, and 404 for an entity the service does not know', async () => {
      acceptingUpstream('cfo@client.example');
      const entityId = crypto.randomUUID();
      const subjects = ['First', 'Second', 'Third'];
      for (const subject of subjects) {
        expect((await requestUpdate(entityId, subject)).status).toBe(202);
      }
      expect((await requestUpdate(crypto.randomUUID(), 'Other entity')).status).toBe(202);
      const records = await historyOf(entityId);
      expect(records.map((record) => record.subject)).toEqual(['Third', 'Second', 'First']);

      const unknown = crypto.randomUUID();
      answer = () => ({
        status: 404,
        body: { code: 404, status: 'error', message: 'Not found.', data: [] },
      });
      const response = await call(historyPath(unknown));
      expect(response.status).toBe(404);
      expect(errorEnvelopeSchema.parse(response.body).message).toContain(unknown);
    });
  });

  describe('the same plugin as embedded mode', () => {
    it('404 for a legal entity the service does not know: nothing forwarded, nothing recorded', async () => {
      const entityId = crypto.randomUUID();
      answer = (request) =>
        request.url.endsWith(entityId)
          ? { status: 404, body: { code: 404, status: 'error', message: 'Not found.', data: [] } }
          : { status: 202, body: { code: 202, status: 'success', message: '', data: {} } };
      const response = await requestUpdate(entityId, 'Nobody there');
      expect(response.status).toBe(404);
      expect(errorEnvelopeSchema.parse(response.body).message).toBe(
        `No legal entity with id ${entityId}.`,
      );
      expect(upstream.entityRequests().map((request) => request.url)).toEqual([
        `/api/v2/entities/legal-entities/${entityId}`,
      ]);
    });

    it('audits a request as embedded mode does: who asked, for which recipient and configuration', async () => {
      acceptingUpstream('ceo@client.example');
      const entityId = crypto.randomUUID();
      expect((await requestUpdate(entityId, 'Audited')).status).toBe(202);
      const trail = await call(`/api/v2/entities/${entityId}/audit-events`);
      expect(trail.status).toBe(200);
      expect(auditEventPageSchema.parse(trail.body).data).toContainEqual(
        expect.objectContaining({
          action: 'client-update.request',
          actor: 'Grace Reviewer',
          outcome: 'success',
          detail: { recipientId: 'person-1', configId: 40 },
        }),
      );
    });

    it('offers no resend, reminder or client response: the identity service sends the e-mails', async () => {
      const base = `/api/v2/entities/legal-entities/${crypto.randomUUID()}/client-update-requests/${crypto.randomUUID()}`;
      for (const [method, suffix] of [
        ['POST', '/resend'],
        ['POST', '/remind'],
        ['GET', '/response'],
        ['POST', '/response/contact'],
      ] as const) {
        const response = await call(base + suffix, {
          method,
          ...(method === 'POST'
            ? { headers: { 'content-type': 'application/json' }, body: '{}' }
            : {}),
        });
        expect(response.status, suffix).toBe(404);
      }
      expect(upstream.entityRequests()).toEqual([]);
    });
  });

  describe('admin CLI for the configurations', () => {
    it('adds, replaces, lists and removes configurations, with --json', async () => {
      const set = async (...extra: string[]) =>
        admin('client-config:set', '77', '--name', 'KYB refresh', '--subject', 'Refresh', ...extra);
      expect((await set('--message', 'One', '--json')).stdout).toBe(
        `${JSON.stringify({ configId: 77, created: true })}\n`,
      );
      const replaced = await set('--message', 'Two');
      expect(replaced.stdout).toContain('Replaced the e-mail configuration 77.');

      const listed = await admin('client-config:list', '--json');
      const { configs } = JSON.parse(listed.stdout) as {
        configs: { configId: number; defaultMessage: string }[];
      };
      expect(configs.find((config) => config.configId === 77)).toEqual({
        configId: 77,
        name: 'KYB refresh',
        description: '',
        defaultSubject: 'Refresh',
        defaultMessage: 'Two',
      });
      expect((await admin('client-config:list')).stdout).toContain('77\tKYB refresh\tRefresh');

      expect((await admin('client-config:remove', '77', '--json')).stdout).toBe(
        `${JSON.stringify({ configId: 77 })}\n`,
      );
      const again = await admin('client-config:remove', '77');
      expect(again).toMatchObject({ code: 1, stderr: 'There is no e-mail configuration 77.\n' });
    });

    it('refuses a bad configId, missing texts, a subject with a line break and misplaced options', async () => {
      const refusals: [string[], RegExp][] = [
        [
          ['client-config:set', 'abc', '--name', 'n', '--subject', 's', '--message', 'm'],
          /configId/,
        ],
        [['client-config:set', '0', '--name', 'n', '--subject', 's', '--message', 'm'], /configId/],
        [['client-config:set', '5', '--name', 'n', '--message', 'm'], /--subject/],
        [['client-config:set', '5', '--name', 'n', '--subject', 's'], /--message/],
        [['client-config:set', '5', '--subject', 's', '--message', 'm'], /--name/],
        [
          ['client-config:set', '5', '--name', 'n', '--subject', 'a\nb', '--message', 'm'],
          /one line/,
        ],
        [['client-config:remove'], /needs a configId/],
        [['account:list', '--subject', 's'], /--subject applies only to client-config:set/],
      ];
      for (const [argv, message] of refusals) {
        const result = await admin(...argv);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(message);
      }
      const { configs } = JSON.parse((await admin('client-config:list', '--json')).stdout) as {
        configs: { configId: number }[];
      };
      expect(configs.map((config) => config.configId)).not.toContain(5);
    });
  });
});

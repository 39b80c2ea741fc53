import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import {
  clientUpdateAcceptedResponseSchema,
  clientUpdateHistoryResponseSchema,
} from '../../contract/client-updates.ts';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { readMime } from '../testing/read-mime.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';
import { clientUpdatesRepository } from './repository.ts';

const DAY_MS = 86_400_000;
const PORTAL_DOMAINS = 'portal.client.example';

/** A real SMTP server on 127.0.0.1 that keeps what it receives, or refuses while `refuse` is set. */
async function startSmtpServer(behaviour: { refuse?: string }) {
  const messages: Buffer[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (behaviour.refuse) {
          callback(Object.assign(new Error(behaviour.refuse), { responseCode: 554 }));
          return;
        }
        messages.push(Buffer.concat(chunks));
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(testMode === 'gateway')('reminders and resends (embedded mode)', () => {
  const behaviour: { refuse?: string } = {};
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let server: TestServer;
  /** The server's clock, moved by the tests. */
  let clock = Date.parse('2026-11-20T09:00:00.000Z');

  beforeAll(async () => {
    smtp = await startSmtpServer(behaviour);
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, PORTAL_DOMAINS, REMINDER_AFTER_DAYS: '3' },
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });
  beforeEach(() => {
    behaviour.refuse = undefined;
  });

  const historyPath = (entityId: string) =>
    `/api/v2/entities/legal-entities/${entityId}/client-update-requests`;

  async function historyOf(entityId: string) {
    const response = await server.request(historyPath(entityId));
    expect(response.status).toBe(200);
    return clientUpdateHistoryResponseSchema.parse(response.body).data;
  }

  /** A legal entity with one request sent to its primary contact now. */
  async function sentRequest() {
    const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
    const response = await server.request(
      `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          recepientId: primaryContactId,
          emailSubject: 'Your annual review',
          emailMessage: 'Please confirm your registered address.',
          configId: 1,
          domain: 'portal.client.example',
        }),
      },
    );
    const requestId =
      response.status === 202
        ? clientUpdateAcceptedResponseSchema.parse(response.body).data.requestId
        : ((await historyOf(legalEntityId))[0]?.requestId ?? '');
    const remind = (key?: string) =>
      server.request(`${historyPath(legalEntityId)}/${requestId}/remind`, {
        method: 'POST',
        headers: key ? { 'idempotency-key': key } : {},
      });
    return { legalEntityId, requestId, status: response.status, remind };
  }

  it('offers a reminder REMINDER_AFTER_DAYS after the e-mail, not a moment before', async () => {
    const sentAt = clock;
    const { legalEntityId, requestId, remind } = await sentRequest();
    const [record] = await historyOf(legalEntityId);
    expect(record?.reminderDueAt).toBe(new Date(sentAt + 3 * DAY_MS).toISOString());
    expect(record?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, kind: 'first', outcome: 'sent', error: null }),
    ]);

    clock = sentAt + 3 * DAY_MS - 1;
    const early = await remind();
    expect(early.status).toBe(409);
    expect(errorEnvelopeSchema.parse(early.body).message).toMatch(/3 days after the last e-mail/);
    expect(smtp.messages).toHaveLength(1);

    clock = sentAt + 3 * DAY_MS;
    const reminded = await remind('click-1');
    expect(reminded.status, reminded.text).toBe(202);
    expect(smtp.messages).toHaveLength(2);
    const mail = readMime(smtp.messages[1] ?? Buffer.alloc(0));
    expect(mail.headers.get('subject')).toBe('Reminder: Your annual review');
    expect(mail.headers.get('x-kyc-desk-request-id')).toBe(requestId);
    // A new portal link: only a token's hash is stored, so the first link cannot be sent again.
    const linkOf = (text: string | undefined) =>
      /https:\/\/portal\.client\.example\/portal\/[\w-]{20,}/.exec(text ?? '')?.[0];
    const firstLink = linkOf(readMime(smtp.messages[0] ?? Buffer.alloc(0)).text);
    expect(linkOf(mail.text)).toMatch(/^https:/);
    expect(linkOf(mail.text)).not.toBe(firstLink);

    // The same click again (its key) answers the same and sends nothing; a new click is too early.
    const replay = await remind('click-1');
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(reminded.body);
    expect((await remind('click-2')).status).toBe(409);
    expect(smtp.messages).toHaveLength(2);

    const [after] = await historyOf(legalEntityId);
    expect(after?.state).toBe('sent');
    expect(after?.expiresAt).toBe(record?.expiresAt);
    expect(after?.reminderDueAt).toBe(new Date(clock + 3 * DAY_MS).toISOString());
    expect(after?.attempts?.map((a) => [a.attempt, a.kind, a.outcome])).toEqual([
      [1, 'first', 'sent'],
      [2, 'reminder', 'sent'],
    ]);
    expect(after?.attempts?.[1]?.sentBy).toBe(server.account.username);

    const activity = await server.request(
      `/api/v2/entities/${legalEntityId}/audit-events?kind=changes`,
    );
    const reminders = auditEventPageSchema
      .parse(activity.body)
      .data.filter((event) => event.action === 'client-update.remind');
    expect(reminders.map((event) => [event.outcome, event.detail.attempt])).toEqual([
      ['failure', undefined],
      ['success', undefined],
      ['success', 2],
      ['failure', undefined],
    ]);
  });

  it('sends one e-mail when two clicks race', async () => {
    const { legalEntityId, remind } = await sentRequest();
    clock += 3 * DAY_MS;
    const before = smtp.messages.length;
    const answers = await Promise.all([remind('a'), remind('b'), remind()]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    expect(smtp.messages.length - before).toBe(1);
    const [record] = await historyOf(legalEntityId);
    expect(record?.attempts?.filter((a) => a.kind === 'reminder')).toHaveLength(1);
  });

  it('refuses a reminder once the client answered, or the link lapsed', async () => {
    const answered = await sentRequest();
    await clientUpdatesRepository(server.app.services.db).markSubmitted(
      answered.requestId,
      new Date(clock).toISOString(),
    );
    clock += 3 * DAY_MS;
    const refused = await answered.remind();
    expect(refused.status).toBe(409);
    expect(errorEnvelopeSchema.parse(refused.body).message).toMatch(/this request is submitted/);
    expect((await historyOf(answered.legalEntityId))[0]?.reminderDueAt).toBeNull();

    const lapsed = await sentRequest();
    clock += 7 * DAY_MS;
    const late = await lapsed.remind();
    expect(late.status).toBe(409);
    expect(errorEnvelopeSchema.parse(late.body).message).toMatch(/this request is expired/);
  });

  it('records a reminder the mail server refused, and lets the next click try again', async () => {
    const { legalEntityId, remind } = await sentRequest();
    clock += 3 * DAY_MS;
    behaviour.refuse = 'Mailbox busy';
    const refused = await remind('k');
    expect(refused.status).toBe(502);
    // The key of a failed reminder is spent: the console makes a new one per click.
    behaviour.refuse = undefined;
    expect((await remind('k')).status).toBe(409);
    const [record] = await historyOf(legalEntityId);
    expect(record?.state).toBe('sent');
    expect(record?.attempts?.[1]).toMatchObject({ kind: 'reminder', outcome: 'failed' });
    expect(record?.attempts?.[1]?.error).toMatch(/Mailbox busy/);
    expect((await remind('k2')).status).toBe(202);
    const [after] = await historyOf(legalEntityId);
    expect(after?.attempts?.map((a) => a.outcome)).toEqual(['sent', 'failed', 'sent']);
  });

  it('records every resend as an attempt', async () => {
    behaviour.refuse = 'Try again later';
    const { legalEntityId, requestId, status } = await sentRequest();
    expect(status).toBe(502);
    const resendPath = `${historyPath(legalEntityId)}/${requestId}/resend`;
    expect((await server.request(resendPath, { method: 'POST' })).status).toBe(502);
    behaviour.refuse = undefined;
    expect((await server.request(resendPath, { method: 'POST' })).status).toBe(202);
    expect((await server.request(resendPath, { method: 'POST' })).status).toBe(202);
    const [record] = await historyOf(legalEntityId);
    expect(record?.attempts?.map((a) => [a.attempt, a.kind, a.outcome])).toEqual([
      [1, 'first', 'failed'],
      [2, 'resend', 'failed'],
      [3, 'resend', 'sent'],
    ]);
    // No reminder for a request that has just gone out.
    expect(record?.reminderDueAt).toBe(new Date(clock + 3 * DAY_MS).toISOString());
  });

  it('sends one e-mail when three Resend clicks on a failed request race', async () => {
    behaviour.refuse = 'Try again later';
    const { legalEntityId, requestId } = await sentRequest();
    behaviour.refuse = undefined;
    const before = smtp.messages.length;
    const resend = () =>
      server.request(`${historyPath(legalEntityId)}/${requestId}/resend`, { method: 'POST' });
    const answers = await Promise.all([resend(), resend(), resend()]);
    // A click that lost the claim is 409; one that read the request after the e-mail went is 202.
    expect(answers.filter((a) => a.status === 202).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 202 || a.status === 409)).toBe(true);
    expect(smtp.messages.length - before).toBe(1);
    const [record] = await historyOf(legalEntityId);
    expect(record?.attempts?.filter((a) => a.kind === 'resend')).toHaveLength(1);
  });
});

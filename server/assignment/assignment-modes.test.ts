import { auditEventPageSchema } from '../../contract/audit.ts';
import {
  assignmentResponseSchema,
  entityAssigneeResponseSchema,
  reviewerListResponseSchema,
} from '../../contract/assignment.ts';
import { capabilitiesResponseSchema } from '../../contract/capabilities.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { legalEntityResponseSchema } from '../../contract/entities.ts';
import { createAccount } from '../auth/accounts.ts';
import path from 'node:path';
import { openDatabase, type Db } from '../db/database.ts';
import { reviewersRepository } from '../gateway/reviewers-repository.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';
import { assignmentRepository } from './repository.ts';
import { assignEntity } from './service.ts';

/**
 * Assignment as the console uses it, in the project's mode: embedded, or (server-gateway) through a
 * gateway that keeps it in its own database. Everyone signs in through the server under test, as
 * the gateway knows only reviewers who have signed in there.
 */
let server: TestServer;
const tokens = { me: '', colleague: '', auditor: '' };
const names = { me: '', colleague: '', auditor: '', neverSignedIn: '' };

async function signIn(username: string, password: string): Promise<string> {
  const answer = await server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: username, Password: password }),
  });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { token: string }).token;
}

function as(token: string) {
  return { auth: 'none' as const, headers: { authorization: `Bearer ${token}` } };
}

function putAssignee(id: string, username: string | null, token = tokens.me) {
  return server.request(`/api/v2/entities/${id}/assignee`, {
    method: 'PUT',
    auth: 'none',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
}

async function assigneeOf(id: string): Promise<string | null> {
  const answer = await server.request(`/api/v2/entities/${id}/assignee`, as(tokens.auditor));
  expect(answer.status, answer.text).toBe(200);
  return entityAssigneeResponseSchema.parse(answer.body).data.assignedUser;
}

async function newEntity(): Promise<string> {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db, {});
  return legalEntityId;
}

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server.app.services;
  const stamp = Date.now();
  const colleague = await createAccount(db, `Colleague-${stamp}`);
  const auditor = await createAccount(db, `auditor-${stamp}`, { role: 'auditor' });
  names.neverSignedIn = (await createAccount(db, `absent-${stamp}`)).username;
  Object.assign(names, {
    me: server.account.username,
    colleague: colleague.username,
    auditor: auditor.username,
  });
  if (server.gateway) {
    // The gateway keeps roles of its own (docs/gateway.md), by the name its sign-in bound.
    const gateway = await openDatabase(path.join(server.dataDir, 'gateway'));
    await reviewersRepository(gateway.db).setRole(auditor.username, 'auditor');
    await gateway.db.destroy();
  }
  tokens.me = await signIn(server.account.username, server.account.password);
  tokens.colleague = await signIn(colleague.username, colleague.password);
  tokens.auditor = await signIn(auditor.username, auditor.password);
});
afterAll(async () => {
  await server.close();
});

describe(`assignment in this mode (${testEngine})`, () => {
  it('is offered in this mode', async () => {
    const answer = await server.request('/api/capabilities', as(tokens.me));
    expect(capabilitiesResponseSchema.parse(answer.body).data.features.assignment).toBe(true);
  });

  it('assigns (ignoring case), reads back, unassigns, and records entity.assign each time', async () => {
    const id = await newEntity();
    expect(await assigneeOf(id)).toBeNull();
    const assigned = await putAssignee(id, names.colleague.toLowerCase());
    expect(assigned.status, assigned.text).toBe(200);
    expect(assignmentResponseSchema.parse(assigned.body).data).toEqual({
      entityId: id,
      assignedUser: names.colleague,
      previous: null,
    });
    expect(await assigneeOf(id)).toBe(names.colleague);
    const taken = await putAssignee(id, names.me);
    expect(assignmentResponseSchema.parse(taken.body).data.previous).toBe(names.colleague);
    const unassigned = await putAssignee(id, null);
    expect(assignmentResponseSchema.parse(unassigned.body).data).toEqual({
      entityId: id,
      assignedUser: null,
      previous: names.me,
    });
    expect(await assigneeOf(id)).toBeNull();

    const events = await server.request(
      `/api/v2/audit-events?action=entity.assign&entityId=${id}`,
      as(tokens.auditor),
    );
    expect(events.status, events.text).toBe(200);
    expect(
      auditEventPageSchema
        .parse(events.body)
        .data.map((event) => ({ actor: event.actor, outcome: event.outcome, ...event.detail })),
    ).toEqual([
      { actor: names.me, outcome: 'success', from: names.me, to: null },
      { actor: names.me, outcome: 'success', from: names.colleague, to: names.me },
      { actor: names.me, outcome: 'success', from: null, to: names.colleague },
    ]);
  });

  it('keeps a gateway assignment in the gateway: the identity service’s entity is untouched', async () => {
    const id = await newEntity();
    expect((await putAssignee(id, names.me)).status).toBe(200);
    const upstream = await assignmentRepository(server.app.services.db).assigneeOf(id);
    expect(upstream?.assignee).toBe(server.mode === 'gateway' ? null : names.me);
    const detail = await server.request(`/api/v2/entities/legal-entities/${id}`, as(tokens.me));
    const shown = legalEntityResponseSchema.parse(detail.body).data.kycMetaData?.assignedUser;
    expect(shown).toBe(server.mode === 'gateway' ? undefined : names.me);
  });

  it('lists who can be assigned: reviewers, not auditors; in gateway mode only those who signed in there', async () => {
    const answer = await server.request('/api/v2/reviewers', as(tokens.auditor));
    expect(answer.status, answer.text).toBe(200);
    const usernames = reviewerListResponseSchema.parse(answer.body).data.map((r) => r.username);
    expect(usernames).toEqual(expect.arrayContaining([names.me, names.colleague]));
    expect(usernames).not.toContain(names.auditor);
    const id = await newEntity();
    const absent = await putAssignee(id, names.neverSignedIn);
    if (server.mode === 'gateway') {
      expect(usernames).not.toContain(names.neverSignedIn);
      expect(absent.status).toBe(400);
    } else {
      expect(usernames).toContain(names.neverSignedIn);
      expect(absent.status).toBe(200);
    }
  });

  it('refuses at its edges: 400 on username, 404 for an unknown entity, 403 for an auditor', async () => {
    const id = await newEntity();
    for (const username of [names.auditor, 'nobody-here', '']) {
      const answer = await putAssignee(id, username);
      expect(answer.status, username).toBe(400);
      expect(errorEnvelopeSchema.parse(answer.body).errors?.[0]?.field).toBe('username');
    }
    const unknown = crypto.randomUUID();
    expect((await putAssignee(unknown, names.me)).status).toBe(404);
    const read = await server.request(`/api/v2/entities/${unknown}/assignee`, as(tokens.me));
    expect(read.status).toBe(404);
    expect((await putAssignee(id, names.me, tokens.auditor)).status).toBe(403);
    expect(await assigneeOf(id)).toBeNull();
  });
});

describe(`the gateway's store on this engine (${testEngine})`, () => {
  // The gateway's own database is SQLite in these tests; its SQL runs here on the project's engine.
  let db: Db;
  beforeAll(() => {
    db = server.app.services.db;
  });
  const audit = () => Promise.resolve();

  it('assigns any entity id, knows reviewers by sign-in, and leaves auditors out', async () => {
    const reviewers = reviewersRepository(db);
    const now = Date.now();
    await reviewers.bindToken(`hash-a-${now}`, 'Store-Reviewer', now + 60_000, now);
    await reviewers.bindToken(`hash-b-${now}`, 'store-auditor', now + 60_000, now);
    await reviewers.setRole('store-auditor', 'auditor');
    const store = assignmentRepository(db, 'gateway');
    const listed = (await store.reviewers()).map((reviewer) => reviewer.username);
    expect(listed).toContain('Store-Reviewer');
    expect(listed).not.toContain('store-auditor');

    const upstreamId = `upstream-${now}`;
    const assigned = await assignEntity(db, upstreamId, 'store-reviewer', audit, 'gateway');
    expect(assigned).toEqual({
      entityId: upstreamId,
      assignedUser: 'Store-Reviewer',
      previous: null,
    });
    const again = await assignEntity(db, upstreamId, 'STORE-REVIEWER', audit, 'gateway');
    expect(again.previous).toBe('Store-Reviewer');
    await expect(assignEntity(db, upstreamId, 'store-auditor', audit, 'gateway')).rejects.toThrow(
      'Only a reviewer account can be assigned.',
    );
    expect((await assignEntity(db, upstreamId, null, audit, 'gateway')).assignedUser).toBeNull();
    expect(await store.assigneeOf(upstreamId)).toEqual({ assignee: null });
  });
});

import { auditEventPageSchema } from '../../contract/audit.ts';
import { assignmentResponseSchema } from '../../contract/assignment.ts';
import { capabilitiesResponseSchema } from '../../contract/capabilities.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { entityListResponseSchema, legalEntityResponseSchema } from '../../contract/entities.ts';
import {
  reviewQueueResponseSchema,
  takeNextResponseSchema,
  type ReviewQueuePage,
} from '../../contract/reviews.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import type { Db } from '../db/database.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';

let server: TestServer;
let db: Db;
const clock = new Date('2026-06-10T12:00:00.000Z');
/** A second reviewer and an auditor, each with its API key. */
const other = { username: '', apiKey: '' };
const auditor = { username: '', apiKey: '' };

function as(apiKey: string | undefined) {
  return apiKey === undefined ? {} : { auth: 'none' as const, headers: { 'X-API-Key': apiKey } };
}

function putAssignee(id: string, username: string | null, apiKey?: string) {
  const credentials = as(apiKey);
  return server.request(`/api/v2/entities/${id}/assignee`, {
    method: 'PUT',
    ...credentials,
    headers: { ...credentials.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
}

function takeNext(body?: unknown, apiKey?: string) {
  const credentials = as(apiKey);
  return server.request('/api/v2/reviews/take-next', {
    method: 'POST',
    ...credentials,
    ...(body === undefined
      ? { headers: credentials.headers }
      : {
          headers: { ...credentials.headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
  });
}

async function queue(query: string, apiKey?: string): Promise<ReviewQueuePage> {
  const response = await server.request(`/api/v2/reviews${query}`, as(apiKey));
  expect(response.status, response.text).toBe(200);
  return reviewQueueResponseSchema.parse(response.body);
}

async function dueOn(date: string, country = 'GB'): Promise<string> {
  const { legalEntityId } = await insertLegalEntity(db, {
    entity: { next_kyc_review: date, kyc_status: 'Accepted', risk_level: 'Low' },
    legalEntity: { country },
  });
  return legalEntityId;
}

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded', now: () => clock });
  db = server.app.services.db;
  Object.assign(other, await createAccount(db, `other-${Date.now()}`));
  Object.assign(auditor, await createAccount(db, `auditor-${Date.now()}`, { role: 'auditor' }));
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  // Each test starts from an empty queue of its own.
  await db.updateTable('entities').set({ next_kyc_review: null, assignee: null }).execute();
});

describe(`PUT /api/v2/entities/{id}/assignee (${testEngine})`, () => {
  it('assigns, shows it on the entity, the list and the queue, and unassigns', async () => {
    const id = await dueOn('2026-06-01');
    const assigned = await putAssignee(id, other.username.toUpperCase());
    expect(assigned.status, assigned.text).toBe(200);
    expect(assignmentResponseSchema.parse(assigned.body).data).toEqual({
      entityId: id,
      assignedUser: other.username,
      previous: null,
    });

    const detail = await server.request(`/api/v2/entities/legal-entities/${id}`);
    expect(legalEntityResponseSchema.parse(detail.body).data.kycMetaData?.assignedUser).toBe(
      other.username,
    );
    const list = await server.request('/api/v2/entities?limit=100&type=legal-entities');
    const listed = entityListResponseSchema
      .parse(list.body)
      .data.find((entity) => entity.id === id);
    expect(listed?.kycMetaData?.assignedUser).toBe(other.username);
    expect((await queue('?due=all')).data.map((item) => item.assignedUser)).toEqual([
      other.username,
    ]);

    const unassigned = await putAssignee(id, null);
    expect(assignmentResponseSchema.parse(unassigned.body).data).toEqual({
      entityId: id,
      assignedUser: null,
      previous: other.username,
    });
    const after = await server.request(`/api/v2/entities/legal-entities/${id}`);
    expect(legalEntityResponseSchema.parse(after.body).data.kycMetaData).not.toHaveProperty(
      'assignedUser',
    );
    expect((await queue('?due=all')).data[0]?.assignedUser).toBeNull();
  });

  it('records entity.assign with the previous and new assignee', async () => {
    const id = await dueOn('2026-06-01');
    await putAssignee(id, server.account.username);
    await putAssignee(id, other.username);
    const events = await server.request(
      `/api/v2/audit-events?action=entity.assign&entityId=${id}`,
      as(auditor.apiKey),
    );
    expect(events.status, events.text).toBe(200);
    const details = auditEventPageSchema
      .parse(events.body)
      .data.map((event) => ({ actor: event.actor, outcome: event.outcome, ...event.detail }));
    expect(details).toEqual([
      expect.objectContaining({
        actor: server.account.username,
        outcome: 'success',
        from: server.account.username,
        to: other.username,
      }),
      expect.objectContaining({ from: null, to: server.account.username }),
    ]);
  });

  it('assigns only enabled reviewer accounts: 400 on username otherwise', async () => {
    const id = await dueOn('2026-06-01');
    const disabled = await createAccount(db, `gone-${Date.now()}`);
    const row = await accountsRepository(db).findByUsername(disabled.username);
    await accountsRepository(db).disable(row?.id ?? '');
    for (const username of [auditor.username, disabled.username, 'nobody-here', '']) {
      const answer = await putAssignee(id, username);
      expect(answer.status, username).toBe(400);
      expect(errorEnvelopeSchema.parse(answer.body).errors?.[0]?.field).toBe('username');
    }
    expect((await queue('?due=all')).data[0]?.assignedUser).toBeNull();
  });

  it('answers 404 for an unknown entity and 403 for an auditor', async () => {
    expect((await putAssignee(crypto.randomUUID(), other.username)).status).toBe(404);
    const id = await dueOn('2026-06-01');
    expect((await putAssignee(id, other.username, auditor.apiKey)).status).toBe(403);
    expect((await takeNext(undefined, auditor.apiKey)).status).toBe(403);
  });
});

it('is offered in embedded mode', async () => {
  const answer = await server.request('/api/capabilities');
  expect(capabilitiesResponseSchema.parse(answer.body).data.features).toMatchObject({
    assignment: true,
    waitingForMe: true,
  });
});

describe(`GET /api/v2/reviews?assignee (${testEngine})`, () => {
  it('lists mine, nobody’s or a named reviewer’s, with counts of that filter', async () => {
    const [mine, theirs, nobodys] = [
      await dueOn('2026-06-01'),
      await dueOn('2026-06-02'),
      await dueOn('2026-06-03'),
    ];
    await putAssignee(mine, server.account.username);
    await putAssignee(theirs, other.username);
    const ids = (page: ReviewQueuePage) => page.data.map((item) => item.entityId);

    const me = await queue('?due=all&assignee=me');
    expect(ids(me)).toEqual([mine]);
    expect(me.counts.overdue).toBe(1);
    expect(ids(await queue('?due=all&assignee=me', other.apiKey))).toEqual([theirs]);
    expect(ids(await queue('?due=all&assignee=none'))).toEqual([nobodys]);
    expect(ids(await queue(`?due=all&assignee=${other.username}`))).toEqual([theirs]);
    expect(ids(await queue('?due=all'))).toEqual([mine, theirs, nobodys]);
  });
});

describe(`POST /api/v2/reviews/take-next (${testEngine})`, () => {
  it('assigns the soonest-due unassigned entity of the filters, then 404 when none is left', async () => {
    const later = await dueOn('2026-06-20');
    const soonest = await dueOn('2026-05-01');
    const taken = await dueOn('2026-04-01');
    const french = await dueOn('2026-03-01', 'FR');
    await putAssignee(taken, other.username);

    const first = await takeNext({ country: 'GB' });
    expect(first.status, first.text).toBe(200);
    const item = takeNextResponseSchema.parse(first.body).data;
    expect(item).toMatchObject({ entityId: soonest, assignedUser: server.account.username });
    // No body: the whole queue, every window.
    expect(takeNextResponseSchema.parse((await takeNext()).body).data.entityId).toBe(french);
    expect(takeNextResponseSchema.parse((await takeNext({ due: '30d' })).body).data.entityId).toBe(
      later,
    );
    const none = await takeNext({});
    expect(none.status).toBe(404);
    expect(errorEnvelopeSchema.parse(none.body).message).toContain('No unassigned entity');
    expect((await takeNext({ due: 'soon' })).status).toBe(400);
  });

  it('gives 8 concurrent reviewers 8 different entities, the soonest, none skipped', async () => {
    const reviewers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        createAccount(db, `racer-${String(index)}-${Date.now()}`),
      ),
    );
    const dates = Array.from(
      { length: 20 },
      (_, index) => `2026-05-${String(index + 1).padStart(2, '0')}`,
    );
    const byDate = new Map<string, string>();
    for (const date of dates) byDate.set(date, await dueOn(date));
    const given: string[] = [];
    // Two rounds: the second starts from what the first left.
    for (let round = 0; round < 2; round += 1) {
      const answers = await Promise.all(reviewers.map((reviewer) => takeNext({}, reviewer.apiKey)));
      const items = answers.map((answer) => {
        expect(answer.status, answer.text).toBe(200);
        return takeNextResponseSchema.parse(answer.body).data;
      });
      expect(new Set(items.map((item) => item.assignedUser)).size).toBe(8);
      given.push(...items.map((item) => item.entityId));
    }
    expect(new Set(given).size).toBe(16);
    expect(new Set(given)).toEqual(new Set(dates.slice(0, 16).map((date) => byDate.get(date))));
    const events = await server.request(
      '/api/v2/audit-events?action=entity.assign&limit=500',
      as(auditor.apiKey),
    );
    const taken = auditEventPageSchema
      .parse(events.body)
      .data.filter(
        (event) => event.detail.via === 'take-next' && given.includes(event.entityId ?? ''),
      );
    expect(taken).toHaveLength(16);
  });
});

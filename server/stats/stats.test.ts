import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { recordedVerificationResponseSchema } from '../../contract/decisions.ts';
import { KYC_STATUSES, RISK_LEVELS } from '../../contract/entities.ts';
import { reviewQueueResponseSchema } from '../../contract/reviews.ts';
import { statsResponseSchema, type Stats } from '../../contract/stats.ts';
import { createAccount } from '../auth/accounts.ts';
import type { Db } from '../db/database.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';

let server: TestServer;
let db: Db;
const clock = new Date('2026-06-10T12:00:00.000Z');
const second = { username: '', apiKey: '' };
const auditor = { username: '', apiKey: '' };

const as = (apiKey?: string) =>
  apiKey === undefined ? {} : { auth: 'none' as const, headers: { 'X-API-Key': apiKey } };

/** An acceptance recorded by the test's own account: held for a second reviewer under four-eyes. */
function recordAcceptance(legalEntityId: string) {
  return server.request(`/api/v2/entities/legal-entities/${legalEntityId}/verifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      verificationStatus: 'Accepted',
      verificationDate: '2026-06-10',
      verificationSource: 'Companies House',
      nextReviewDate: '2027-06-10',
    }),
  });
}

async function stats(apiKey?: string): Promise<Stats> {
  const answer = await server.request('/api/v2/stats', as(apiKey));
  expect(answer.status, answer.text).toBe(200);
  return statsResponseSchema.parse(answer.body).data;
}

/** The breakdowns counted the slow way, from every entity row. */
async function oracle(): Promise<Pick<Stats, 'total' | 'byStatus' | 'byRisk' | 'byType'>> {
  const rows = await db
    .selectFrom('entities')
    .select(['kind', 'kyc_status', 'risk_level'])
    .execute();
  const count = (match: (row: (typeof rows)[number]) => boolean) => rows.filter(match).length;
  return {
    total: rows.length,
    byStatus: Object.fromEntries(
      KYC_STATUSES.map((status) => [status, count((row) => row.kyc_status === status)]),
    ) as Stats['byStatus'],
    byRisk: Object.fromEntries(
      RISK_LEVELS.map((level) => [level, count((row) => row.risk_level === level)]),
    ) as Stats['byRisk'],
    byType: {
      legalEntities: count((row) => row.kind === 'legal'),
      naturalPersons: count((row) => row.kind === 'person'),
    },
  };
}

const DATES = [
  '2026-05-01',
  '2026-06-09',
  '2026-06-10',
  '2026-06-17',
  '2026-06-18',
  '2026-07-10',
  '2026-07-11',
  null,
];

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded', env: { FOUR_EYES: 'all' }, now: () => clock });
  db = server.app.services.db;
  Object.assign(second, await createAccount(db, `second-${Date.now()}`));
  Object.assign(auditor, await createAccount(db, `auditor-${Date.now()}`, { role: 'auditor' }));
  // Every status, risk level and window edge, on both kinds of entity.
  for (const [index, date] of DATES.entries()) {
    await insertLegalEntity(db, {
      entity: {
        next_kyc_review: date,
        kyc_status: KYC_STATUSES[index % KYC_STATUSES.length],
        risk_level: RISK_LEVELS[index % RISK_LEVELS.length],
      },
    });
  }
});

afterAll(async () => {
  await server.close();
});

describe(`GET /api/v2/stats (${testEngine})`, () => {
  it('counts every entity by status, risk and type, as the rows say', async () => {
    const counted = await stats();
    expect(counted).toMatchObject(await oracle());
    expect(counted.today).toBe('2026-06-10');
  });

  it('counts the due windows exactly as the queue does', async () => {
    const queue = await server.request('/api/v2/reviews?due=all&limit=1');
    const { counts } = reviewQueueResponseSchema.parse(queue.body);
    const { due } = await stats();
    expect(due).toEqual({
      overdue: counts.overdue,
      due7: counts.due7,
      due30: counts.due30,
      undated: counts.undated,
    });
    // The edges: 9 June is overdue, 10 and 17 June in 7 days, up to 10 July in 30.
    expect(due.overdue).toBeGreaterThanOrEqual(2);
    expect(due.due7).toBeGreaterThanOrEqual(2);
    expect(due.due30).toBeGreaterThanOrEqual(due.due7 + 2);
  });

  it('follows a new entity and a status change at once (no stale counts)', async () => {
    const before = await stats();
    const personId = await insertNaturalPerson(db);
    await db
      .updateTable('entities')
      .set({ kyc_status: 'Escalated', risk_level: 'High' })
      .where('id', '=', personId)
      .execute();
    const after = await stats();
    expect(after.total).toBe(before.total + 1);
    expect(after.byType.naturalPersons).toBe(before.byType.naturalPersons + 1);
    expect(after.byStatus.Escalated).toBe(before.byStatus.Escalated + 1);
    expect(after.byRisk.High).toBe(before.byRisk.High + 1);
    expect(after).toMatchObject(await oracle());
  });

  it("counts the caller's assigned entities and the decisions waiting for the caller, not their own", async () => {
    const { legalEntityId } = await insertLegalEntity(db, {
      entity: { next_kyc_review: '2026-06-12' },
    });
    const assigned = await server.request(`/api/v2/entities/${legalEntityId}/assignee`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: second.username }),
    });
    expect(assigned.status, assigned.text).toBe(200);
    const held = await recordAcceptance(legalEntityId);
    expect(recordedVerificationResponseSchema.parse(held.body).data.state).toBe('pending');

    const mine = await stats();
    const theirs = await stats(second.apiKey);
    expect(mine).toMatchObject({ assignedToMe: 0, pendingConfirmations: 0 });
    expect(theirs).toMatchObject({ assignedToMe: 1, pendingConfirmations: 1 });
    // An auditor reads the counts but confirms nothing.
    expect(await stats(auditor.apiKey)).toMatchObject({ assignedToMe: 0, pendingConfirmations: 0 });
  });

  it("follows the caller's assignments at once: assigned, then taken away", async () => {
    const { legalEntityId } = await insertLegalEntity(db);
    const assign = (username: string | null) =>
      server.request(`/api/v2/entities/${legalEntityId}/assignee`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username }),
      });
    const before = (await stats(second.apiKey)).assignedToMe;
    expect((await assign(second.username)).status).toBe(200);
    expect((await stats(second.apiKey)).assignedToMe).toBe(before + 1);
    expect((await assign(null)).status).toBe(200);
    expect((await stats(second.apiKey)).assignedToMe).toBe(before);
  });

  it('follows held decisions at once: held by another reviewer, then rejected', async () => {
    const { legalEntityId } = await insertLegalEntity(db);
    const before = (await stats(second.apiKey)).pendingConfirmations;
    const held = await recordAcceptance(legalEntityId);
    const { data } = recordedVerificationResponseSchema.parse(held.body);
    if (data.state !== 'pending') throw new Error('expected a held decision');
    expect((await stats(second.apiKey)).pendingConfirmations).toBe(before + 1);
    const rejected = await server.request(
      `/api/v2/pending-verifications/${data.pending.id}/reject`,
      {
        method: 'POST',
        auth: 'none',
        headers: { 'X-API-Key': second.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'Registry extract is out of date' }),
      },
    );
    expect(rejected.status, rejected.text).toBe(200);
    expect((await stats(second.apiKey)).pendingConfirmations).toBe(before);
  });

  it('is refused without credentials and recorded as stats.read', async () => {
    const anonymous = await server.request('/api/v2/stats', { auth: 'none' });
    expect(anonymous.status).toBe(401);
    await stats(second.apiKey);
    const events = await server.request(
      '/api/v2/audit-events?action=stats.read',
      as(auditor.apiKey),
    );
    expect(events.status, events.text).toBe(200);
    const recorded = auditEventPageSchema.parse(events.body).data;
    expect(recorded[0]).toMatchObject({ actor: second.username, outcome: 'success' });
  });
});

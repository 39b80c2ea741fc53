import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
  waitingDecisionsPageSchema,
  type WaitingDecisionsPage,
} from '../../contract/decisions.ts';
import { createAccount } from '../auth/accounts.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';

let server: TestServer;
/** The server's clock: each held decision a minute after the previous one. */
let clock = new Date('2026-06-15T09:00:00.000Z');
const second = { username: '', apiKey: '' };
const auditor = { username: '', apiKey: '' };

const as = (apiKey: string) => ({ auth: 'none' as const, headers: { 'X-API-Key': apiKey } });
const json = (body: unknown, apiKey?: string): RequestInit & { auth?: 'none' } => ({
  method: 'POST',
  ...(apiKey ? { auth: 'none' as const } : {}),
  headers: { 'content-type': 'application/json', ...(apiKey ? { 'X-API-Key': apiKey } : {}) },
  body: JSON.stringify(body),
});

async function waiting(query: string, apiKey?: string): Promise<WaitingDecisionsPage> {
  const answer = await server.request(
    `/api/v2/pending-verifications${query}`,
    apiKey ? as(apiKey) : {},
  );
  expect(answer.status, answer.text).toBe(200);
  return waitingDecisionsPageSchema.parse(answer.body);
}

/** Holds an Accepted outcome on a new legal entity as `apiKey`'s account (the test's by default). */
async function holdOutcome(name: string, apiKey?: string): Promise<string> {
  clock = new Date(clock.getTime() + 60_000);
  const { legalEntityId } = await insertLegalEntity(server.app.services.db, {
    legalEntity: { company_name: name },
  });
  const answer = await server.request(
    `/api/v2/entities/legal-entities/${legalEntityId}/verifications`,
    json(
      {
        verificationStatus: 'Accepted',
        verificationDate: '2026-06-15',
        verificationSource: 'Companies House',
        nextReviewDate: '2027-06-15',
      },
      apiKey,
    ),
  );
  const recorded = recordedVerificationResponseSchema.parse(answer.body).data;
  if (recorded.state !== 'pending') throw new Error('expected a held outcome');
  return recorded.pending.id;
}

beforeAll(async () => {
  server = await startTestServer({
    mode: 'embedded',
    env: { FOUR_EYES: 'all' },
    now: () => clock,
  });
  const { db } = server.app.services;
  Object.assign(second, await createAccount(db, `second-${Date.now()}`));
  Object.assign(auditor, await createAccount(db, `auditor-${Date.now()}`, { role: 'auditor' }));
});

afterAll(async () => {
  await server.close();
});

describe(`GET /api/v2/pending-verifications (${testEngine})`, () => {
  it('lists what others held, oldest first, with the entity, paged, and a total', async () => {
    const first = await holdOutcome('Alpha Trading Ltd');
    const mine = await holdOutcome('Second Own Ltd', second.apiKey);
    clock = new Date(clock.getTime() + 60_000);
    const personId = await insertNaturalPerson(server.app.services.db, {
      first_name: 'Ada',
      middle_name: 'King',
      last_name: 'Lovelace',
    });
    const review = await server.request(
      `/api/v2/entities/natural-persons/${personId}/reviews`,
      json({ kycStatus: 'Accepted', nextKYCReview: '2027-06-15', reason: 'Documents checked.' }),
    );
    const held = recordedPersonReviewResponseSchema.parse(review.body).data;
    if (held.state !== 'pending') throw new Error('expected a held review');
    const last = await holdOutcome('Zeta Shipping Ltd');

    const page = await waiting('?limit=2', second.apiKey);
    expect(page.total).toBe(3);
    expect(page.data.map((item) => [item.id, item.entityName, item.entityType])).toEqual([
      [first, 'Alpha Trading Ltd', 'Legal Entity'],
      [held.pending.id, 'Ada King Lovelace', 'Natural Person'],
    ]);
    expect(page.data[0]).toMatchObject({
      kind: 'verification',
      requestedBy: server.account.username,
      state: 'pending',
    });
    expect(page.nextCursor).not.toBeNull();
    const rest = await waiting(
      `?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`,
      second.apiKey,
    );
    expect(rest.data.map((item) => item.id)).toEqual([last]);
    expect(rest.nextCursor).toBeNull();

    // The author sees only the other account's decision; an auditor confirms nothing.
    const own = await waiting('');
    expect(own.data.map((item) => item.id)).toEqual([mine]);
    expect(own.total).toBe(1);
    expect(await waiting('', auditor.apiKey)).toMatchObject({ data: [], total: 0 });

    // Confirmed, it waits no more.
    const confirmed = await server.request(
      `/api/v2/pending-verifications/${first}/confirm`,
      json({}, second.apiKey),
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    const after = await waiting('', second.apiKey);
    expect(after.data.map((item) => item.id)).toEqual([held.pending.id, last]);
    expect(after.total).toBe(2);
  });

  it('refuses a bad limit or cursor and unknown parameters with 400', async () => {
    for (const query of ['?limit=0', '?limit=101', '?cursor=nonsense', '?state=pending']) {
      const answer = await server.request(`/api/v2/pending-verifications${query}`);
      expect(answer.status, query).toBe(400);
      errorEnvelopeSchema.parse(answer.body);
    }
  });
});

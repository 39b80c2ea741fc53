import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEventPageSchema } from '../../contract/audit.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  confirmedDecisionResponseSchema,
  legalEntityCreatedResponseSchema,
  pendingVerificationListResponseSchema,
  personReviewListResponseSchema,
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
  riskLevelChangedResponseSchema,
} from '../../contract/decisions.ts';
import { legalEntityResponseSchema, naturalPersonResponseSchema } from '../../contract/entities.ts';
import { reviewQueueResponseSchema } from '../../contract/reviews.ts';
import { createAccount } from '../auth/accounts.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

const TODAY = '2026-06-15';
const now = () => new Date(`${TODAY}T09:30:00.000Z`);
type Mode = 'high' | 'all' | 'off';
type Risk = 'High' | 'Medium';
type Path = 'onboarding' | 'outcome' | 'person review' | 'lowering the risk';

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A caller with its own account and API key on the same server. */
async function accountOn(server: TestServer): Promise<TestServer['request']> {
  const { apiKey } = await createAccount(
    server.app.services.db,
    `second-${Math.random().toString(36).slice(2, 8)}`,
  );
  return (pathAndQuery, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('X-API-Key', apiKey);
    return server.request(pathAndQuery, { ...init, headers, auth: 'none' });
  };
}

async function setRisk(server: TestServer, id: string, risk: string, next?: string) {
  await server.app.services.db
    .updateTable('entities')
    .set({ risk_level: risk, ...(next ? { next_kyc_review: next } : {}) })
    .where('id', '=', id)
    .execute();
}

async function personWithRisk(server: TestServer, risk: string, next = '2026-01-31') {
  const id = await insertNaturalPerson(server.app.services.db);
  await setRisk(server, id, risk, next);
  return id;
}

async function legalEntity(server: TestServer, id: string) {
  return legalEntityResponseSchema.parse(
    (await server.request(`/api/v2/entities/legal-entities/${id}`)).body,
  ).data;
}

async function person(server: TestServer, id: string) {
  return naturalPersonResponseSchema.parse(
    (await server.request(`/api/v2/entities/natural-persons/${id}`)).body,
  ).data;
}

/** What one path did: the entity, and the held decision when there is one. */
interface Acted {
  entityId: string;
  pendingId: string | undefined;
  /** The entity's state once the change is applied (at once, or on confirmation). */
  isApplied: () => Promise<boolean>;
}

/** Each path that can make an entity Accepted (or lower a High risk), done by the server's own account. */
const PATHS: Record<Path, (server: TestServer, risk: Risk) => Promise<Acted>> = {
  async onboarding(server, risk) {
    const answer = await server.request(
      '/api/v2/entities/legal-entities',
      json(legalEntityPayload({ riskLevel: risk })),
    );
    expect(answer.status).toBe(201);
    const created = legalEntityCreatedResponseSchema.parse(answer.body);
    const entityId = created.data.id;
    expect(created.data.kycMetaData?.riskLevel).toBe(risk);
    if (created.pendingVerification) {
      // Held: created in Review, the acceptance not among its verifications yet.
      expect(created.data.kycMetaData?.kycStatus).toBe('Review');
      expect(created.data.corporateVerifications).toEqual([]);
    }
    return {
      entityId,
      pendingId: created.pendingVerification?.id,
      isApplied: async () => {
        const entity = await legalEntity(server, entityId);
        return (
          entity.kycMetaData?.kycStatus === 'Accepted' &&
          entity.kycMetaData.nextKYCReview === '2099-03-01' &&
          entity.corporateVerifications?.length === 1
        );
      },
    };
  },
  async outcome(server, risk) {
    const { legalEntityId: entityId } = await insertLegalEntity(server.app.services.db, {
      entity: { risk_level: risk, kyc_status: 'Review', next_kyc_review: '2026-01-31' },
    });
    const answer = await server.request(
      `/api/v2/entities/legal-entities/${entityId}/verifications`,
      json({
        verificationStatus: 'Accepted',
        verificationDate: TODAY,
        verificationSource: 'Companies House',
        nextReviewDate: '2028-06-15',
      }),
    );
    expect(answer.status).toBe(201);
    const recorded = recordedVerificationResponseSchema.parse(answer.body).data;
    return {
      entityId,
      pendingId: recorded.state === 'pending' ? recorded.pending.id : undefined,
      isApplied: async () =>
        (await legalEntity(server, entityId)).kycMetaData?.kycStatus === 'Accepted',
    };
  },
  async 'person review'(server, risk) {
    const entityId = await personWithRisk(server, risk);
    const answer = await server.request(
      `/api/v2/entities/natural-persons/${entityId}/reviews`,
      json({ kycStatus: 'Accepted', nextKYCReview: '2027-06-15', reason: 'Passport checked.' }),
    );
    expect(answer.status).toBe(201);
    const recorded = recordedPersonReviewResponseSchema.parse(answer.body).data;
    return {
      entityId,
      pendingId: recorded.state === 'pending' ? recorded.pending.id : undefined,
      isApplied: async () => {
        const { kycMetaData } = await person(server, entityId);
        return kycMetaData.kycStatus === 'Accepted' && kycMetaData.nextKYCReview === '2027-06-15';
      },
    };
  },
  async 'lowering the risk'(server, risk) {
    const { legalEntityId: entityId } = await insertLegalEntity(server.app.services.db, {
      entity: { risk_level: risk },
    });
    const to = risk === 'High' ? 'Medium' : 'Low';
    const answer = await server.request(
      `/api/v2/entities/${entityId}/risk-level`,
      json({ riskLevel: to, reason: 'Ownership now transparent.' }, 'PUT'),
    );
    const changed = riskLevelChangedResponseSchema.parse(answer.body).data;
    expect(answer.status).toBe(changed.state === 'pending' ? 202 : 200);
    return {
      entityId,
      pendingId: changed.state === 'pending' ? changed.pending.id : undefined,
      isApplied: async () => (await legalEntity(server, entityId)).kycMetaData?.riskLevel === to,
    };
  },
};

/** Held under the rule: an acceptance when FOUR_EYES=all, or high with a High risk; a High risk lowered unless off. */
function expectedHeld(path: Path, mode: Mode, risk: Risk): boolean {
  if (path === 'lowering the risk') return mode !== 'off' && risk === 'High';
  return mode === 'all' || (mode === 'high' && risk === 'High');
}

describe.each<Mode>(['high', 'all', 'off'])('four-eyes on every path, FOUR_EYES=%s', (mode) => {
  let server: TestServer;
  let other: TestServer['request'];
  beforeAll(async () => {
    server = await startTestServer({ now, env: { FOUR_EYES: mode } });
    other = await accountOn(server);
  });
  afterAll(() => server.close());

  const rows = (Object.keys(PATHS) as Path[]).flatMap((path) =>
    (['High', 'Medium'] as const).map((risk) => ({ path, risk })),
  );
  test.each(rows)('$path, $risk risk', async ({ path, risk }) => {
    const acted = await PATHS[path](server, risk);
    const held = expectedHeld(path, mode, risk);
    expect(acted.pendingId !== undefined).toBe(held);
    expect(await acted.isApplied()).toBe(!held);
    if (!acted.pendingId) return;

    const listed = pendingVerificationListResponseSchema.parse(
      (
        await server.request(
          path === 'person review'
            ? `/api/v2/entities/natural-persons/${acted.entityId}/pending-verifications`
            : `/api/v2/entities/legal-entities/${acted.entityId}/pending-verifications`,
        )
      ).body,
    ).data;
    expect(listed.map((pending) => pending.id)).toEqual([acted.pendingId]);

    const confirmPath = `/api/v2/pending-verifications/${acted.pendingId}/confirm`;
    const own = await server.request(confirmPath, json({}));
    expect(own.status).toBe(403);
    expect(errorEnvelopeSchema.parse(own.body).message).toContain('Four-eyes rule');
    expect(await acted.isApplied()).toBe(false);

    const confirmed = await other(confirmPath, json({}));
    expect(confirmed.status).toBe(200);
    expect(confirmedDecisionResponseSchema.parse(confirmed.body).data.state).toBe('applied');
    expect(await acted.isApplied()).toBe(true);
    expect((await other(confirmPath, json({}))).status).toBe(409);
  });
});

describe('onboarding, person reviews and risk changes in detail (FOUR_EYES=high)', () => {
  let server: TestServer;
  let other: TestServer['request'];
  beforeAll(async () => {
    server = await startTestServer({ now });
    other = await accountOn(server);
  });
  afterAll(() => server.close());

  test('a held onboarding replays the same answer under its Idempotency-Key and holds once', async () => {
    const payload = legalEntityPayload({ riskLevel: 'High' });
    const send = () =>
      server.request('/api/v2/entities/legal-entities', {
        ...json(payload),
        headers: { 'content-type': 'application/json', 'Idempotency-Key': 'held-once' },
      });
    const first = await send();
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const created = legalEntityCreatedResponseSchema.parse(first.body);
    expect(created.pendingVerification).toMatchObject({
      kind: 'verification',
      rule: 'high',
      state: 'pending',
      verification: { verificationStatus: 'Accepted', nextReviewDate: '2099-03-01' },
    });
    const held = await server.app.services.db
      .selectFrom('pending_verifications')
      .select('id')
      .where('legal_entity_id', '=', created.data.id)
      .execute();
    expect(held).toHaveLength(1);
  });

  test('riskLevel defaults to Medium and refuses anything but Low, Medium or High', async () => {
    const created = await server.request(
      '/api/v2/entities/legal-entities',
      json(legalEntityPayload()),
    );
    expect(legalEntityCreatedResponseSchema.parse(created.body).data.kycMetaData?.riskLevel).toBe(
      'Medium',
    );
    const wrong = await server.request(
      '/api/v2/entities/legal-entities',
      json({ ...legalEntityPayload(), riskLevel: 'Extreme' }),
    );
    expect(wrong.status).toBe(400);
    expect(errorEnvelopeSchema.parse(wrong.body).errors?.[0]?.field).toBe('riskLevel');
  });

  test('a person review: next review after today, reason 1..1000, 404 for others, listed newest first', async () => {
    const id = await personWithRisk(server, 'Medium');
    const reviews = `/api/v2/entities/natural-persons/${id}/reviews`;
    const review = (overrides: Record<string, unknown>) =>
      server.request(
        reviews,
        json({ kycStatus: 'Review', nextKYCReview: '2026-06-16', reason: 'x', ...overrides }),
      );
    const fieldOf = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      return `${status} ${errorEnvelopeSchema.parse(body).errors?.[0]?.field ?? ''}`;
    };
    expect(await fieldOf(review({ nextKYCReview: TODAY }))).toBe('400 nextKYCReview');
    expect(await fieldOf(review({ reason: '  ' }))).toBe('400 reason');
    expect(await fieldOf(review({ reason: 'x'.repeat(1001) }))).toBe('400 reason');
    expect(await fieldOf(review({ kycStatus: 'Fine' }))).toBe('400 kycStatus');
    expect((await review({ reason: 'x'.repeat(1000) })).status).toBe(201);
    expect((await review({ nextKYCReview: '2026-06-17', reason: 'Second look.' })).status).toBe(
      201,
    );

    const { legalEntityId } = await insertLegalEntity(server.app.services.db);
    for (const unknown of [legalEntityId, 'no-such-person']) {
      const path = `/api/v2/entities/natural-persons/${unknown}/reviews`;
      expect((await server.request(path)).status).toBe(404);
      expect(
        (
          await server.request(
            path,
            json({ kycStatus: 'Review', nextKYCReview: '2027-01-01', reason: 'x' }),
          )
        ).status,
      ).toBe(404);
    }

    const listed = personReviewListResponseSchema.parse((await server.request(reviews)).body).data;
    expect(listed.map((item) => item.reason)).toEqual(['Second look.', 'x'.repeat(1000)]);
    expect(listed[0]).toMatchObject({
      kycStatus: 'Review',
      nextKYCReview: '2026-06-17',
      author: server.account.username,
      // Recorded in the same millisecond as the first: one later, so the time gives the order.
      at: new Date(now().getTime() + 1).toISOString(),
      state: 'applied',
    });
  });

  test('a reviewed person moves out of the overdue queue, in cached answers too, with an audit event', async () => {
    const id = await personWithRisk(server, 'Low', '2026-01-31');
    const overdueIds = async () =>
      reviewQueueResponseSchema
        .parse((await server.request('/api/v2/reviews?due=overdue&limit=100')).body)
        .data.map((item) => item.entityId);
    expect(await overdueIds()).toContain(id);
    // Read the person first, so that a stale cached page would be served afterwards.
    expect((await person(server, id)).kycMetaData.nextKYCReview).toBe('2026-01-31');

    const answer = await server.request(
      `/api/v2/entities/natural-persons/${id}/reviews`,
      json({ kycStatus: 'Accepted', nextKYCReview: '2029-06-15', reason: 'Documents current.' }),
    );
    expect(recordedPersonReviewResponseSchema.parse(answer.body).data.state).toBe('applied');
    expect(await overdueIds()).not.toContain(id);
    expect((await person(server, id)).kycMetaData).toMatchObject({
      kycStatus: 'Accepted',
      nextKYCReview: '2029-06-15',
    });

    const events = auditEventPageSchema.parse(
      (await server.request(`/api/v2/entities/${id}/audit-events`)).body,
    ).data;
    expect(events.find((event) => event.action === 'person.review')?.detail).toMatchObject({
      kycStatus: 'Accepted',
      nextKYCReview: '2029-06-15',
      reason: 'Documents current.',
      state: 'applied',
    });
  });

  test('a rejected person review leaves the person as they were and is listed as rejected', async () => {
    const id = await personWithRisk(server, 'High');
    const recorded = recordedPersonReviewResponseSchema.parse(
      (
        await server.request(
          `/api/v2/entities/natural-persons/${id}/reviews`,
          json({ kycStatus: 'Accepted', nextKYCReview: '2027-06-15', reason: 'Looks fine.' }),
        )
      ).body,
    ).data;
    if (recorded.state !== 'pending') throw new Error('expected a held review');
    const secondWhileHeld = await server.request(
      `/api/v2/entities/${id}/risk-level`,
      json({ riskLevel: 'Low', reason: 'x' }, 'PUT'),
    );
    expect(secondWhileHeld.status).toBe(409);
    expect(
      (
        await server.request(
          `/api/v2/pending-verifications/${recorded.pending.id}/reject`,
          json({ reason: 'Mine.' }),
        )
      ).status,
    ).toBe(403);
    const rejected = await other(
      `/api/v2/pending-verifications/${recorded.pending.id}/reject`,
      json({ reason: 'Passport expired.' }),
    );
    expect(rejected.status).toBe(200);
    expect((await person(server, id)).kycMetaData.kycStatus).not.toBe('Accepted');
    const listed = personReviewListResponseSchema.parse(
      (await server.request(`/api/v2/entities/natural-persons/${id}/reviews`)).body,
    ).data;
    expect(listed.map((review) => review.state)).toEqual(['rejected']);
  });

  test('risk changes: raised at once on a person, each an entity.risk-level event; the same level changes nothing', async () => {
    const id = await personWithRisk(server, 'Low');
    const put = (riskLevel: string, reason = 'Adverse media found.') =>
      server.request(`/api/v2/entities/${id}/risk-level`, json({ riskLevel, reason }, 'PUT'));
    const raised = await put('High');
    expect(raised.status).toBe(200);
    expect(riskLevelChangedResponseSchema.parse(raised.body).data).toMatchObject({
      state: 'applied',
      kycMetaData: { riskLevel: 'High', lastUpdate: now().toISOString() },
    });
    expect((await person(server, id)).kycMetaData.riskLevel).toBe('High');
    expect((await put('High')).status).toBe(200);
    expect((await put('Extreme')).status).toBe(400);
    expect((await put('Low', '')).status).toBe(400);
    expect(
      (
        await server.request(
          '/api/v2/entities/no-such-entity/risk-level',
          json({ riskLevel: 'Low', reason: 'x' }, 'PUT'),
        )
      ).status,
    ).toBe(404);

    const lowered = await put('Low', 'Cleared by compliance.');
    expect(lowered.status).toBe(202);
    const held = riskLevelChangedResponseSchema.parse(lowered.body).data;
    expect(held).toMatchObject({
      state: 'pending',
      kycMetaData: { riskLevel: 'High' },
      pending: {
        kind: 'risk-level',
        riskChange: { from: 'High', to: 'Low', reason: 'Cleared by compliance.' },
      },
    });
    if (held.state !== 'pending') throw new Error('expected a held change');
    await other(`/api/v2/pending-verifications/${held.pending.id}/confirm`, json({}));

    const details = auditEventPageSchema
      .parse((await server.request(`/api/v2/entities/${id}/audit-events`)).body)
      .data.filter((event) => event.action === 'entity.risk-level')
      .map((event) => event.detail);
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          from: 'Low',
          to: 'High',
          reason: 'Adverse media found.',
          state: 'applied',
        }),
        expect.objectContaining({ from: 'High', to: 'Low', state: 'pending' }),
        expect.objectContaining({ from: 'High', to: 'Low', state: 'confirmed' }),
      ]),
    );
    expect(details).toHaveLength(3);
  });
});

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEventPageSchema, type AuditEvent } from '../../contract/audit.ts';
import {
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
} from '../../contract/decisions.ts';
import { createAccount } from '../auth/accounts.ts';
import { openDatabase } from '../db/database.ts';
import { reviewersRepository } from '../gateway/reviewers-repository.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { documentedRoutes } from '../testing/documented-routes.ts';

/**
 * Every refused call to a control is on the record (docs/audit.md, "Refused calls"), in both
 * modes: route × refusal kind → the event it writes. A control the API documents (a write, or a
 * route not every role may call) without a row here fails the first test.
 */
type Kind = 'unauthenticated' | 'role' | 'four-eyes' | 'pending' | 'late';

const EXPECTED: Record<Kind, { status: number; outcome: 'denied' | 'failure'; reason: string }> = {
  unauthenticated: { status: 401, outcome: 'denied', reason: 'unauthenticated' },
  role: { status: 403, outcome: 'denied', reason: 'role' },
  'four-eyes': { status: 403, outcome: 'denied', reason: 'four-eyes' },
  pending: { status: 409, outcome: 'failure', reason: 'decision-pending' },
  late: { status: 409, outcome: 'failure', reason: 'already-closed' },
};

const CONTROLS: Record<string, { action: string; kinds: Kind[]; gateway?: false }> = {
  'POST /api/signout': { action: 'auth.sign-out', kinds: ['unauthenticated'] },
  'POST /api/v2/entities/legal-entities': {
    action: 'entity.create',
    kinds: ['unauthenticated', 'role'],
  },
  'PATCH /api/v2/documents/{id}': {
    action: 'document.decide',
    kinds: ['unauthenticated', 'role'],
    gateway: false,
  },
  'GET /api/v2/entities/legal-entities/{id}/request-client-update': {
    action: 'client-update.request',
    kinds: ['unauthenticated', 'role'],
  },
  'POST /api/v2/entities/legal-entities/{id}/request-client-update': {
    action: 'client-update.request',
    kinds: ['unauthenticated', 'role'],
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/resend': {
    action: 'client-update.request',
    kinds: ['unauthenticated', 'role'],
    gateway: false,
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/review': {
    action: 'client-update.review',
    kinds: ['unauthenticated', 'role'],
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/remind': {
    action: 'client-update.remind',
    kinds: ['unauthenticated', 'role'],
    gateway: false,
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/response/contact': {
    action: 'client-update.contact',
    kinds: ['unauthenticated', 'role'],
    gateway: false,
  },
  'POST /api/v2/entities/{id}/notes': { action: 'note.add', kinds: ['unauthenticated', 'role'] },
  'GET /api/v2/audit-events': { action: 'audit.read', kinds: ['unauthenticated', 'role'] },
  'POST /api/v2/entities/legal-entities/{id}/verifications': {
    action: 'verification.record',
    kinds: ['unauthenticated', 'role', 'pending'],
    gateway: false,
  },
  'POST /api/v2/entities/natural-persons/{id}/reviews': {
    action: 'person.review',
    kinds: ['unauthenticated', 'role', 'pending'],
    gateway: false,
  },
  'PUT /api/v2/entities/{id}/risk-level': {
    action: 'entity.risk-level',
    kinds: ['unauthenticated', 'role', 'pending'],
    gateway: false,
  },
  'PUT /api/v2/entities/{id}/assignee': {
    action: 'entity.assign',
    kinds: ['unauthenticated', 'role'],
  },
  'POST /api/v2/reviews/take-next': {
    action: 'entity.assign',
    kinds: ['unauthenticated', 'role'],
    gateway: false,
  },
  'POST /api/v2/pending-verifications/{id}/confirm': {
    action: 'verification.confirm',
    kinds: ['unauthenticated', 'role', 'four-eyes', 'late'],
    gateway: false,
  },
  'POST /api/v2/pending-verifications/{id}/reject': {
    action: 'verification.reject',
    kinds: ['unauthenticated', 'role', 'four-eyes', 'late'],
    gateway: false,
  },
};

const PLACEHOLDER_ID = '0f0e0d0c-0b0a-4908-8706-050403020100';
const TODAY = new Date().toISOString().slice(0, 10);

/** A valid body per route for the refusals that come after the body is read (409). */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v2/entities/legal-entities/{id}/verifications': {
    verificationStatus: 'Accepted',
    verificationDate: TODAY,
    verificationSource: 'Companies House',
    nextReviewDate: '2099-01-31',
  },
  'POST /api/v2/entities/natural-persons/{id}/reviews': {
    kycStatus: 'Accepted',
    nextKYCReview: '2099-01-31',
    reason: 'Documents checked.',
  },
  'PUT /api/v2/entities/{id}/risk-level': { riskLevel: 'Low', reason: 'Cleared.' },
  'POST /api/v2/pending-verifications/{id}/reject': { reason: 'Not convinced.' },
};

let server: TestServer;
const tokens = { author: '', second: '', auditor: '' };
const names = { author: '', second: '', auditor: '' };
/** Embedded mode: a legal entity and a person each with a decision held, and one already closed. */
const held = { entityId: '', personId: '', openId: '', closedId: '' };

async function signIn(username: string, password: string): Promise<string> {
  const answer = await server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: username, Password: password }),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

function call(route: string, token: string | undefined, id: string, body: unknown = {}) {
  const [method = '', template = ''] = route.split(' ');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return server.request(template.replace('{id}', id), {
    method,
    auth: 'none',
    headers: method === 'GET' ? (token ? { authorization: `Bearer ${token}` } : {}) : headers,
    ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
  });
}

/** The action's events, newest first, as the auditor reads them. */
async function eventsOf(action: string): Promise<AuditEvent[]> {
  const answer = await server.request(
    `/api/v2/audit-events?action=${encodeURIComponent(action)}&limit=500`,
    { auth: 'none', headers: { authorization: `Bearer ${tokens.auditor}` } },
  );
  expect(answer.status).toBe(200);
  return auditEventPageSchema.parse(answer.body).data;
}

async function holdOutcome(entityId: string): Promise<string> {
  const answer = await call(
    'POST /api/v2/entities/legal-entities/{id}/verifications',
    tokens.author,
    entityId,
    VALID_BODIES['POST /api/v2/entities/legal-entities/{id}/verifications'],
  );
  const recorded = recordedVerificationResponseSchema.parse(answer.body).data;
  if (recorded.state !== 'pending') throw new Error('expected a held outcome');
  return recorded.pending.id;
}

beforeAll(async () => {
  server = await startTestServer({ env: { FOUR_EYES: 'all' } });
  const { db } = server.app.services;
  const second = await createAccount(db, `second-${Date.now()}`);
  const auditor = await createAccount(db, `auditor-${Date.now()}`, { role: 'auditor' });
  names.author = server.account.username;
  names.second = second.username;
  names.auditor = auditor.username;
  tokens.author = await signIn(server.account.username, server.account.password);
  tokens.second = await signIn(second.username, second.password);
  tokens.auditor = await signIn(auditor.username, auditor.password);
  if (server.mode === 'gateway') {
    const gatewayDb = (await openDatabase(path.join(server.dataDir, 'gateway'))).db;
    await reviewersRepository(gatewayDb).setRole(auditor.username, 'auditor');
    await gatewayDb.destroy();
    return;
  }
  held.entityId = (await insertLegalEntity(db)).legalEntityId;
  held.openId = await holdOutcome(held.entityId);
  const closedId = await holdOutcome((await insertLegalEntity(db)).legalEntityId);
  const confirmed = await call(
    'POST /api/v2/pending-verifications/{id}/confirm',
    tokens.second,
    closedId,
  );
  expect(confirmed.status).toBe(200);
  held.closedId = closedId;
  held.personId = await insertNaturalPerson(db);
  const review = await call(
    'POST /api/v2/entities/natural-persons/{id}/reviews',
    tokens.author,
    held.personId,
    VALID_BODIES['POST /api/v2/entities/natural-persons/{id}/reviews'],
  );
  expect(recordedPersonReviewResponseSchema.parse(review.body).data.state).toBe('pending');
});
afterAll(async () => {
  await server.close();
});

/** Who refuses, on which id, for each kind: what provokes the refusal. */
function provocation(route: string, kind: Kind): { token?: string; actor: string; id: string } {
  const isAuditLog = route === 'GET /api/v2/audit-events';
  if (kind === 'unauthenticated') return { actor: 'anonymous', id: PLACEHOLDER_ID };
  if (kind === 'role') {
    return isAuditLog
      ? { token: tokens.author, actor: names.author, id: PLACEHOLDER_ID }
      : { token: tokens.auditor, actor: names.auditor, id: PLACEHOLDER_ID };
  }
  if (kind === 'four-eyes') return { token: tokens.author, actor: names.author, id: held.openId };
  if (kind === 'late') return { token: tokens.second, actor: names.second, id: held.closedId };
  const onPerson = route.includes('natural-persons');
  return {
    token: tokens.author,
    actor: names.author,
    id: onPerson ? held.personId : held.entityId,
  };
}

describe('refused calls to controls: route × refusal', () => {
  test('every documented control has a row, and every row a route', async () => {
    const controls = (await documentedRoutes(server))
      .filter(({ method, roles }) => method !== 'GET' || (roles !== undefined && roles.length < 2))
      .map(({ route }) => route);
    const rows = Object.entries(CONTROLS)
      .filter(([, row]) => server.mode === 'embedded' || row.gateway !== false)
      .map(([route]) => route);
    expect(controls.filter((route) => !(route in CONTROLS))).toEqual([]);
    expect(rows.filter((route) => !controls.includes(route))).toEqual([]);
  });

  for (const [route, { action, kinds, gateway }] of Object.entries(CONTROLS)) {
    for (const kind of kinds) {
      test.skipIf(testModeSkips(gateway))(`${route}: ${kind}`, async () => {
        const { token, actor, id } = provocation(route, kind);
        const before = new Set((await eventsOf(action)).map((event) => event.id));
        const expected = EXPECTED[kind];
        const answer = await call(route, token, id, VALID_BODIES[route] ?? {});
        expect(answer.status).toBe(expected.status);
        const added = (await eventsOf(action)).filter(
          (event) => !before.has(event.id) && event.outcome !== 'success',
        );
        expect(added).toHaveLength(1);
        expect(added[0]).toMatchObject({ actor, action, outcome: expected.outcome });
        expect(added[0]?.detail).toMatchObject({
          status: expected.status,
          reason: expected.reason,
        });
        if (kind === 'four-eyes' || kind === 'pending') {
          expect(added[0]?.entityId).toBe(
            route.includes('natural-persons') ? held.personId : held.entityId,
          );
        }
      });
    }
  }

  test('unauthenticated refusals cannot flood the trail: one per address and route a minute', async () => {
    const route = 'POST /api/v2/entities/{id}/notes';
    const before = new Set((await eventsOf('note.add')).map((event) => event.id));
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await call(route, undefined, PLACEHOLDER_ID)).status).toBe(401);
    }
    const added = (await eventsOf('note.add')).filter((event) => !before.has(event.id));
    // The matrix's own 401 on this route came within the minute: none of these twenty is added.
    expect(added).toEqual([]);
  });
});

/** Rows the running mode does not offer (role-matrix.test.ts checks they are 404 there). */
function testModeSkips(gateway: false | undefined): boolean {
  return process.env.KYC_TEST_MODE === 'gateway' && gateway === false;
}

import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { reviewersRepository } from '../gateway/reviewers-repository.ts';
import { documentedRoutes } from '../testing/documented-routes.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { createAccount } from './accounts.ts';

/**
 * Separation of duties (decisions.md "Roles"), route by route: `read` is for every role, `act`
 * only for reviewers (an auditor gets 403), `audit-log` only for auditors. `gateway: false` marks
 * what gateway mode does not offer (404 for everyone there). A route the API documents without a
 * row here fails the first test, so a new route cannot skip this table.
 */
const ROUTES: Record<string, { access: 'read' | 'act' | 'audit-log'; gateway?: false }> = {
  'GET /api/capabilities': { access: 'read' },
  'GET /api/v2/entities': { access: 'read' },
  'GET /api/v2/entities/legal-entities': { access: 'read' },
  'POST /api/v2/entities/legal-entities': { access: 'act' },
  'GET /api/v2/entities/legal-entities/{id}': { access: 'read' },
  'GET /api/v2/entities/natural-persons': { access: 'read' },
  'GET /api/v2/entities/natural-persons/{id}': { access: 'read' },
  'GET /api/v2/entities/{id}/documents': { access: 'read' },
  'GET /api/v2/documents/{id}': { access: 'read' },
  'PATCH /api/v2/documents/{id}': { access: 'act', gateway: false },
  'GET /api/v2/client-update-configs': { access: 'read' },
  'GET /api/v2/entities/legal-entities/{id}/client-update-requests': { access: 'read' },
  'GET /api/v2/entities/legal-entities/{id}/request-client-update': { access: 'act' },
  'POST /api/v2/entities/legal-entities/{id}/request-client-update': { access: 'act' },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/resend': {
    access: 'act',
    gateway: false,
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/review': {
    access: 'act',
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/remind': {
    access: 'act',
    gateway: false,
  },
  'GET /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/response': {
    access: 'read',
    gateway: false,
  },
  'POST /api/v2/entities/legal-entities/{id}/client-update-requests/{requestId}/response/contact': {
    access: 'act',
    gateway: false,
  },
  'GET /api/v2/entities/{id}/notes': { access: 'read' },
  'POST /api/v2/entities/{id}/notes': { access: 'act' },
  'GET /api/v2/audit-events': { access: 'audit-log' },
  'GET /api/v2/entities/{id}/audit-events': { access: 'read' },
  'GET /api/v2/reviews': { access: 'read', gateway: false },
  'GET /api/v2/entity-index': { access: 'read', gateway: false },
  'POST /api/v2/reviews/take-next': { access: 'act', gateway: false },
  'PUT /api/v2/entities/{id}/assignee': { access: 'act' },
  'GET /api/v2/entities/{id}/assignee': { access: 'read' },
  'GET /api/v2/reviewers': { access: 'read' },
  'GET /api/v2/stats': { access: 'read', gateway: false },
  'GET /api/v2/pending-verifications': { access: 'read', gateway: false },
  'GET /api/v2/entities/legal-entities/{id}/pending-verifications': {
    access: 'read',
    gateway: false,
  },
  'POST /api/v2/entities/legal-entities/{id}/verifications': { access: 'act', gateway: false },
  'GET /api/v2/entities/natural-persons/{id}/pending-verifications': {
    access: 'read',
    gateway: false,
  },
  'GET /api/v2/entities/natural-persons/{id}/reviews': { access: 'read', gateway: false },
  'POST /api/v2/entities/natural-persons/{id}/reviews': { access: 'act', gateway: false },
  'PUT /api/v2/entities/{id}/risk-level': { access: 'act', gateway: false },
  'POST /api/v2/pending-verifications/{id}/confirm': { access: 'act', gateway: false },
  'POST /api/v2/pending-verifications/{id}/reject': { access: 'act', gateway: false },
};

/** Routes whose own credential check is the route itself: no caller, so no role. */
const WITHOUT_ROLES = new Set(['POST /api/gettoken', 'GET /api/tokenvalid', 'POST /api/signout']);

const PLACEHOLDER_ID = '0f0e0d0c-0b0a-4908-8706-050403020100';

let server: TestServer;
const tokens: Record<'reviewer' | 'auditor', string> = { reviewer: '', auditor: '' };

async function signIn(username: string, password: string): Promise<string> {
  const answer = await server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: username, Password: password }),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

beforeAll(async () => {
  server = await startTestServer();
  const auditor = await createAccount(server.app.services.db, `auditor-${Date.now()}`, {
    role: 'auditor',
  });
  tokens.reviewer = await signIn(server.account.username, server.account.password);
  tokens.auditor = await signIn(auditor.username, auditor.password);
  if (server.mode === 'gateway') {
    // The gateway keeps roles of its own (docs/gateway.md), by the name its sign-in bound.
    const { db } = await openDatabase(path.join(server.dataDir, 'gateway'));
    await reviewersRepository(db).setRole(auditor.username, 'auditor');
    await db.destroy();
  }
});
afterAll(async () => {
  await server.close();
});

/**
 * One call as `role`, with a placeholder id; a write carries an empty JSON object (node:http, as
 * fetch cannot send the interface's GET with a body).
 */
function call(route: string, role: 'reviewer' | 'auditor'): Promise<number> {
  const [method = '', template = ''] = route.split(' ');
  const body = ROUTES[route]?.access === 'act' ? '{}' : '';
  const url = new URL(template.replace('{id}', PLACEHOLDER_ID), server.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      headers: {
        Authorization: `Bearer ${tokens[role]}`,
        ...(body ? { 'Content-Type': 'application/json', 'Content-Length': body.length } : {}),
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('separation of duties: route × role', () => {
  test('every documented route with credentials has a row, and every row a route', async () => {
    const documented = (await documentedRoutes(server))
      .map(({ route }) => route)
      .filter((route) => !WITHOUT_ROLES.has(route));
    const rows = Object.entries(ROUTES)
      .filter(([, row]) => server.mode === 'embedded' || row.gateway !== false)
      .map(([route]) => route);
    expect(documented.filter((route) => !(route in ROUTES))).toEqual([]);
    expect(rows.filter((route) => !documented.includes(route))).toEqual([]);
  });

  for (const [route, { access, gateway }] of Object.entries(ROUTES)) {
    test(`${route}: ${access}`, async () => {
      const reviewer = await call(route, 'reviewer');
      const auditor = await call(route, 'auditor');
      if (server.mode === 'gateway' && gateway === false) {
        // Absent from the gateway: 404, or 405 with Allow where the path takes other methods.
        expect(reviewer).toBe(auditor);
        expect([404, 405]).toContain(reviewer);
        return;
      }
      expect(reviewer).not.toBe(401);
      expect(auditor).not.toBe(401);
      if (access === 'read') {
        expect(reviewer).not.toBe(403);
        expect(auditor).not.toBe(403);
      } else if (access === 'act') {
        expect(reviewer).not.toBe(403);
        expect(auditor).toBe(403);
      } else {
        expect(reviewer).toBe(403);
        expect(auditor).not.toBe(403);
      }
    });
  }
});

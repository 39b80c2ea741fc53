import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { tokenResponseSchema, tokenValidResponseSchema } from '../../contract/auth.ts';
import { serviceErrorEnvelopeSchema } from '../../contract/common.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
} from '../../contract/entities.ts';
import { VENDOR_DOCUMENT_TEXT, VENDOR_IDS } from '../../contract/testing/vendor-samples.ts';
import { createApp, type App } from '../app.ts';
import { openDatabase } from '../db/database.ts';
import { loadConfig } from '../env.ts';
import {
  REPLAY_LIMIT_MESSAGE,
  startReplayUpstream,
  type ReplayUpstream,
} from '../testing/replay-upstream.ts';

/**
 * Issue 11: a gateway in front of a service that answers like the real one (its published
 * samples, vendor.md) relays every answer, and the console's response schemas read each of them.
 */
let replay: ReplayUpstream;
let gateway: App;
let gatewayUrl: string;
let token: string;

let dataDir: string;

beforeAll(async () => {
  replay = await startReplayUpstream();
  // The gateway keeps its own records (client updates, audit trail) in a database of its own.
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-replay-'));
  gateway = await createApp(
    {
      ...loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        KYC_UPSTREAM_URL: replay.url,
        KYC_UPSTREAM_API_KEY: replay.apiKey,
        KYC_UPSTREAM_API_KEY_HEADER: replay.apiKeyHeader,
      }),
      staticDir: undefined,
    },
    { logger: false },
  );
  gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
  const form = new FormData();
  form.set('Username', replay.username);
  form.set('Password', replay.password);
  const signIn = await fetch(`${gatewayUrl}/api/gettoken`, { method: 'POST', body: form });
  expect(signIn.status).toBe(200);
  token = tokenResponseSchema.parse(await signIn.json()).token;
});

afterAll(async () => {
  await gateway.close();
  await replay.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function read<T extends z.ZodType>(
  path: string,
  schema: T,
  init: RequestInit = {},
): Promise<{ status: number; body: z.output<T> }> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(gatewayUrl + path, { ...init, headers });
  const json: unknown = await response.json();
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${path} answered what the console cannot read: ${JSON.stringify(json)}`);
  }
  return { status: response.status, body: parsed.data };
}

test('sign-in and the token check answer the bare shapes, which the console reads', async () => {
  expect(token.split('.')).toHaveLength(3);
  const { status, body } = await read('/api/tokenvalid', tokenValidResponseSchema);
  expect(status).toBe(200);
  expect(body).toEqual({ isTokenValid: true });
});

test('the type=all list: opaque IDs and the list-style natural person', async () => {
  const { status, body } = await read('/api/v2/entities?type=all', entityListResponseSchema);
  expect(status).toBe(200);
  expect(body.data.map((entity) => entity.id)).toEqual([
    VENDOR_IDS.person,
    VENDOR_IDS.newCompany,
    VENDOR_IDS.testInc,
  ]);
  const [person] = body.data;
  expect(person?.type).toBe('Natural Person');
  expect(person?.kycMetaData).toEqual({
    kycStatus: 'New',
    riskLevel: '0',
    createdDateTime: '2022-02-02T13:29:30.921Z',
    lastUpdate: '2022-02-02T13:39:39.423Z',
    assignedUser: null,
  });
  const persons = await read('/api/v2/entities?type=natural-persons', entityListResponseSchema);
  expect(persons.body.data.map((entity) => entity.type)).toEqual(['Natural Person']);
});

test('a legal entity by id: no kycMetaData or linkedEntities, DUNS and LEI as they came', async () => {
  const { body } = await read(
    `/api/v2/entities/legal-entities/${VENDOR_IDS.testInc}`,
    legalEntityResponseSchema,
  );
  expect(body.data.corporateInformation).toMatchObject({
    dateofIncorporation: null,
    duns: '3423489234',
    glei: '665557778',
  });
  expect(body.data.kycMetaData).toBeUndefined();
  expect(body.data.linkedEntities).toBeUndefined();
});

test('a natural person by id: the ID from kycMetaData.entityID, USA, identity checks', async () => {
  const { body } = await read(
    `/api/v2/entities/natural-persons/${VENDOR_IDS.person}`,
    naturalPersonResponseSchema,
  );
  expect(body.data).toMatchObject({
    id: VENDOR_IDS.person,
    type: 'Natural Person',
    kycMetaData: { kycStatus: 'Approved', externalID: null },
    personalInformation: { countryCode: 'US' },
  });
  expect(body.data.personalInformation.linkedEntities?.map((link) => link.relationship)).toEqual([
    'Advisor',
    'CEO',
  ]);
  expect(body.data.identityVerification).toHaveLength(1);
  expect(body.data.documentAuthentication?.[0]?.docScanConfidence).toBe(100);
});

test('documents without MIME type or size, and a detail whose bytes decide the type', async () => {
  const list = await read(
    `/api/v2/entities/${VENDOR_IDS.newCompany}/documents`,
    documentListResponseSchema,
  );
  expect(list.body.data[0]).toMatchObject({
    fileName: 'Supporting document example 3',
    description: null,
  });
  const { body } = await read(
    `/api/v2/documents/${VENDOR_IDS.document}`,
    documentDetailResponseSchema,
  );
  expect(body.data.mimeType).toBeUndefined();
  expect(Buffer.from(body.data.file, 'base64').toString('latin1')).toBe(VENDOR_DOCUMENT_TEXT);
});

test('a create answered with HTTP 200, code 201 and errors: [] is read as the created entity', async () => {
  const { status, body } = await read(
    '/api/v2/entities/legal-entities',
    legalEntityResponseSchema,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        corporateInformation: { companyName: 'Test Inc.', registrationNumber: '1', country: 'CA' },
      }),
    },
  );
  expect(status).toBe(200);
  expect(body.code).toBe(201);
  expect(body.data.corporateInformation.companyName).toBe('Test Inc.');
});

test('errors with status "failure" and data null reach the console with their message', async () => {
  const { status, body } = await read(
    '/api/v2/entities/legal-entities/no-such-id',
    serviceErrorEnvelopeSchema,
  );
  expect(status).toBe(404);
  expect(body.message).toBe('there is no legal entity with given id');
});

test('the 400 spelt `messsage` reaches the console as a readable error', async () => {
  const { status, body } = await read('/api/v2/entities?limit=1000', serviceErrorEnvelopeSchema);
  expect(status).toBe(400);
  expect(body.code).toBe(400);
  // The relay wraps the service's envelope into this server's, keeping its words.
  expect(body.message).toBe(REPLAY_LIMIT_MESSAGE);
});

test('HEAD on each forwarded read answers as its GET does, without a body, and is audited as that read', async () => {
  const paths = [
    '/api/v2/entities?type=all',
    `/api/v2/entities/legal-entities/${VENDOR_IDS.testInc}`,
    `/api/v2/entities/natural-persons/${VENDOR_IDS.person}`,
    `/api/v2/entities/${VENDOR_IDS.newCompany}/documents`,
    `/api/v2/documents/${VENDOR_IDS.document}`,
    '/api/v2/entities/legal-entities/no-such-id',
    '/api/v2/entities?limit=1000',
  ];
  // What differs between any two answers, and the connection's own headers (Node closes after a HEAD).
  const PER_ANSWER = new Set(['date', 'connection', 'keep-alive']);
  const call = async (method: string, path: string, auth = true) => {
    const response = await fetch(gatewayUrl + path, {
      method,
      headers: auth ? { Authorization: `Bearer ${token}` } : {},
    });
    const headers = Object.fromEntries(
      [...response.headers].filter(([name]) => !PER_ANSWER.has(name)),
    );
    return { status: response.status, headers, body: await response.text() };
  };
  const { db } = await openDatabase(dataDir);
  try {
    const eventsAfter = async (seq: number) =>
      (
        await db
          .selectFrom('audit_events')
          .select(['seq', 'action', 'actor', 'outcome', 'entity_id', 'document_id', 'detail'])
          .where('seq', '>', seq)
          .orderBy('seq')
          .execute()
      ).map(({ seq: _seq, ...event }) => event);
    const lastSeq = async () =>
      (
        await db
          .selectFrom('audit_events')
          .select('seq')
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.seq ?? 0;
    const answers = [];
    for (const path of paths) {
      const before = await lastSeq();
      const get = await call('GET', path);
      const getEvents = await eventsAfter(before);
      const afterGet = await lastSeq();
      const head = await call('HEAD', path);
      answers.push({
        path,
        get: { status: get.status, headers: get.headers, events: getEvents },
        head: { status: head.status, headers: head.headers, events: await eventsAfter(afterGet) },
        headBody: head.body,
      });
    }
    expect(answers).toEqual(
      answers.map((answer) => ({ ...answer, head: answer.get, headBody: '' })),
    );
    // Successes and refusals alike, each one event: a HEAD that always failed would not pass.
    expect(answers.map((answer) => answer.get.status)).toEqual([200, 200, 200, 200, 200, 404, 400]);
    expect(answers.every((answer) => answer.get.events.length === 1)).toBe(true);
    // Without a token a HEAD is refused as its GET is, before the identity service is asked.
    const [get, head] = [
      await call('GET', paths[0] ?? '', false),
      await call('HEAD', paths[0] ?? '', false),
    ];
    expect({ ...head, body: get.body }).toEqual(get);
    expect(head.status).toBe(401);
  } finally {
    await db.destroy();
  }
});

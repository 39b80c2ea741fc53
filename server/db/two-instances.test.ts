import { entityListResponseSchema, legalEntityResponseSchema } from '../../contract/entities.ts';
import { resetPasswordCommand } from '../admin/account-commands.ts';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  testEngine,
  type TestServer,
} from '../testing/harness.ts';
import { openDatabase } from './database.ts';
import { migrationProvider } from './migrate.ts';

const CREATE_PATH = '/api/v2/entities/legal-entities';

/** Two instances on one database (the engine under test), as behind a load balancer. */
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  first = await startTestServer({ mode: 'embedded' });
  second = await startTestServer({
    mode: 'embedded',
    dataDir: first.dataDir,
    databaseUrl: first.databaseUrl,
  });
});

afterAll(async () => {
  await second.close();
  await first.close();
});

/** As one reviewer, whichever instance the request reaches. */
function create(server: TestServer, payload: unknown, headers: Record<string, string> = {}) {
  return server.request(CREATE_PATH, {
    method: 'POST',
    auth: 'none',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': first.account.apiKey, ...headers },
    body: JSON.stringify(payload),
  });
}

async function newestIds(server: TestServer): Promise<string[]> {
  const response = await server.request(
    '/api/v2/entities?limit=100&descending=true&type=legal-entities',
  );
  return entityListResponseSchema.parse(response.body).data.map((entity) => entity.id);
}

test('a create on one instance is read on the other at once, past its response cache', async () => {
  // Fills the second instance's cache with the list as it was.
  const before = await newestIds(second);
  const created = await create(first, legalEntityPayload());
  expect(created.status, created.text).toBe(201);
  const { id } = legalEntityResponseSchema.parse(created.body).data;

  expect(await newestIds(second)).toEqual([id, ...before].slice(0, 100));
  const byId = await second.request(`${CREATE_PATH}/${id}`);
  expect(byId.status).toBe(200);
});

test('a token issued by one instance works on the other, and a password reset on one revokes it on both', async () => {
  const token = await first.token();
  const headers = { Authorization: `Bearer ${token}` };
  const check = (server: TestServer) =>
    server.request('/api/tokenvalid', { auth: 'none', headers }).then((answer) => answer.status);
  expect(await check(second)).toBe(200);

  await resetPasswordCommand(first.app.services.db, first.account.username);
  expect(await check(first)).toBe(401);
  expect(await check(second)).toBe(401);
});

test('the same Idempotency-Key sent to both at once creates one entity', async () => {
  const payload = legalEntityPayload();
  const headers = { 'Idempotency-Key': `two-instances-${crypto.randomUUID()}` };
  const answers = await Promise.all([
    create(first, payload, headers),
    create(second, payload, headers),
    create(first, payload, headers),
    create(second, payload, headers),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
  const ids = new Set(
    answers.map((answer) => legalEntityResponseSchema.parse(answer.body).data.id),
  );
  expect(ids.size).toBe(1);

  const registration = payload.corporateInformation.registrationNumber;
  const search = await second.request(
    `${CREATE_PATH}?registrationNumber=${encodeURIComponent(registration)}`,
  );
  expect((search.body as { data: string[] }).data).toEqual([...ids]);
});

test('30 concurrent creates split over both leave every one stored once, with its contact', async () => {
  const countAll = async () => {
    let count = 0;
    for (;;) {
      const page = entityListResponseSchema.parse(
        (await first.request(`/api/v2/entities?limit=100&start=${String(count)}`)).body,
      ).data;
      count += page.length;
      if (page.length < 100) return count;
    }
  };
  const before = await countAll();
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, n) =>
      create(n % 2 === 0 ? first : second, legalEntityPayload()),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 201));
  // Each create adds the legal entity and its primary contact.
  expect(await countAll()).toBe(before + 60);
  const ids = answers.map((answer) => legalEntityResponseSchema.parse(answer.body).data.id);
  for (const id of ids) {
    const read = await second.request(`${CREATE_PATH}/${id}`);
    expect(read.status).toBe(200);
  }
});

// On SQLite the instances are processes (better-sqlite3 blocks its thread while it waits for a
// lock), which server/db/two-processes.test.ts starts together.
test.runIf(testEngine === 'postgres')(
  'instances starting together on a new database apply each migration once',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-migrate-'));
    const databaseUrl = await newTestDatabaseUrl();
    const opened = await Promise.all(
      Array.from({ length: 3 }, () => openDatabase(dataDir, databaseUrl)),
    );
    try {
      const db = opened[0]?.db;
      if (!db) throw new Error('no database opened');
      const { rows } = await sql<{
        name: string;
      }>`select name from kysely_migration order by name`.execute(db);
      const expected = Object.keys(await migrationProvider.getMigrations()).sort();
      expect(rows.map((row) => row.name)).toEqual(expected);
    } finally {
      for (const { db } of opened) await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  },
);

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { insertLegalEntity } from '../testing/fixtures.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  testEngine,
  type TestServer,
} from '../testing/harness.ts';

const DATABASE = 'kyc-desk.sqlite';

async function modeOf(target: string): Promise<string> {
  return ((await fs.stat(target)).mode & 0o777).toString(8);
}

/** A database write and an outbox e-mail, so the -wal, -shm and outbox files exist. */
async function writeSomething(server: TestServer): Promise<void> {
  const { legalEntityId, primaryContactId } = await insertLegalEntity(server.app.services.db);
  const response = await server.request(
    `/api/v2/entities/legal-entities/${legalEntityId}/request-client-update`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        recepientId: primaryContactId,
        emailSubject: 'Annual review',
        emailMessage: 'Please check your details.',
        configId: 1,
        domain: server.app.services.config.portalDomain,
      }),
    },
  );
  expect(response.status, response.text).toBe(202);
}

/** Every file and folder under DATA_DIR with its mode, e.g. `outbox/…eml: 600`. */
async function modesUnder(dataDir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = { '.': await modeOf(dataDir) };
  for (const entry of await fs.readdir(dataDir, { recursive: true })) {
    const name = entry.replace(/\.eml$/, '').replace(/^outbox\/.+$/, 'outbox/(e-mail)');
    modes[name] = await modeOf(path.join(dataDir, entry));
  }
  return modes;
}

/** On PostgreSQL only the outbox lives in DATA_DIR (DOCUMENT_KEY is required there). */
const PRIVATE = {
  '.': '700',
  ...(testEngine === 'sqlite'
    ? {
        [DATABASE]: '600',
        [`${DATABASE}-wal`]: '600',
        [`${DATABASE}-shm`]: '600',
        'document-key': '600',
      }
    : {}),
  outbox: '700',
  'outbox/(e-mail)': '600',
};

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-modes-'));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

test('a new DATA_DIR and every file in it are readable by the server’s user only', async () => {
  const dataDir = path.join(root, 'new', 'data');
  const server = await startTestServer({ dataDir, mode: 'embedded' });
  try {
    await writeSomething(server);
    expect(await modesUnder(dataDir)).toEqual(PRIVATE);
  } finally {
    await server.close();
  }
});

test('an existing DATA_DIR and database left readable by others are made private at start', async () => {
  const dataDir = path.join(root, 'existing');
  const databaseUrl = await newTestDatabaseUrl();
  const first = await startTestServer({ dataDir, databaseUrl, mode: 'embedded' });
  await writeSomething(first);
  await first.close();
  await fs.chmod(dataDir, 0o755);
  if (testEngine === 'sqlite') {
    await fs.chmod(path.join(dataDir, DATABASE), 0o644);
    await fs.chmod(path.join(dataDir, 'document-key'), 0o644);
  }
  await fs.chmod(path.join(dataDir, 'outbox'), 0o755);

  const second = await startTestServer({ dataDir, databaseUrl, mode: 'embedded' });
  try {
    await writeSomething(second);
    expect(await modesUnder(dataDir)).toEqual(PRIVATE);
  } finally {
    await second.close();
    await dropTestDatabaseUrl(databaseUrl);
  }
});

import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { documentDetailResponseSchema } from '../../contract/entities.ts';
import { keyIdOf } from '../documents/document-crypto.ts';
import { DOCUMENT_CHUNK_BYTES, documentsRepository } from '../documents/repository.ts';
import { insertLegalEntity, storedDocumentBytes } from '../testing/fixtures.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  type TestServer,
} from '../testing/harness.ts';
import type { RotationSummary } from './key-commands.ts';
import { runAdmin } from './run.ts';

const OLD_KEY = crypto.randomBytes(32).toString('base64');
const NEW_KEY = crypto.randomBytes(32).toString('base64');
const idOf = (key: string) => keyIdOf(Buffer.from(key, 'base64'));
const repositoryRoot = path.resolve(import.meta.dirname, '../..');
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

let store: { dataDir: string; databaseUrl: string | undefined };
beforeEach(async () => {
  store = {
    dataDir: await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-keys-')),
    databaseUrl: await newTestDatabaseUrl(),
  };
});
afterEach(async () => {
  await fs.rm(store.dataDir, { recursive: true, force: true });
  await dropTestDatabaseUrl(store.databaseUrl);
});

function serverWith(env: Record<string, string>) {
  return startTestServer({ ...store, mode: 'embedded', env });
}

async function admin(env: Record<string, string>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, {
    env: {
      DATA_DIR: store.dataDir,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
      ...env,
    },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** `npm run admin -- …` as an operator runs it: its own process, beside the running server. */
async function adminProcess(env: Record<string, string>, ...argv: string[]) {
  const { stdout, stderr } = await promisify(execFile)(
    path.join(repositoryRoot, 'node_modules/.bin/tsx'),
    ['server/admin/cli.ts', ...argv],
    {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: store.dataDir,
        ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
        ...env,
      },
      timeout: 120_000,
    },
  );
  return { stdout, stderr };
}

/** Documents written straight through the repository (quicker than the create route), by id with their digests. */
async function insertDocuments(server: TestServer, sizes: number[]): Promise<Map<string, string>> {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  const documents = sizes.map((size) => {
    const bytes = crypto.randomBytes(size);
    return {
      row: {
        id: crypto.randomUUID(),
        entity_id: legalEntityId,
        file_name: 'scan.bin',
        type: 'Other',
        description: null,
        date_received: '2026-01-01 00:00:00',
        approved: 0,
        mime_type: 'application/octet-stream',
        file_size: size,
        sha256: sha256(bytes),
      },
      bytes,
    };
  });
  await server.app.services.db
    .transaction()
    .execute((trx) =>
      documentsRepository(trx).insertMany(documents, server.app.services.documentKeys),
    );
  return new Map(documents.map(({ row }) => [row.id, row.sha256]));
}

async function digestOfDownload(server: TestServer, documentId: string): Promise<string> {
  const response = await server.request(`/api/v2/documents/${documentId}`);
  if (response.status !== 200) return `status ${String(response.status)}: ${response.text}`;
  const { file } = documentDetailResponseSchema.parse(response.body).data;
  return sha256(Buffer.from(file, 'base64'));
}

describe('npm run admin -- keys:rotate', () => {
  it('re-wraps every data key under the new key while a server reads the documents, losing nothing', async () => {
    const before = await serverWith({ DOCUMENT_KEY: OLD_KEY });
    const sizes = [
      ...Array.from({ length: 1_000 }, (_, index) => 200 + (index % 1_000)),
      DOCUMENT_CHUNK_BYTES * 2 + 5,
    ];
    const digests = await insertDocuments(before, sizes).finally(() => before.close());
    const ids = [...digests.keys()];

    // Step 1 of docs/deployment.md: every server holds the new key, and the old one for reading.
    const rotationEnv = { DOCUMENT_KEY: NEW_KEY, DOCUMENT_KEY_PREVIOUS: OLD_KEY };
    const during = await serverWith(rotationEnv);
    const mismatches: string[] = [];
    let reads = 0;
    let readsWhileMixed = 0;
    try {
      // Shared by the loops below, which TypeScript cannot see change each other's flags.
      const state = { rotating: true, mixed: false };
      const readers = Array.from({ length: 4 }, async (_, reader) => {
        for (let next = reader; state.rotating; next += 4) {
          const id = ids[next % ids.length] ?? '';
          const startedWhileMixed = state.mixed;
          const digest = await digestOfDownload(during, id);
          if (digest !== digests.get(id)) mismatches.push(`${id}: ${digest}`);
          reads += 1;
          if (startedWhileMixed) readsWhileMixed += 1;
        }
      });
      // Watches for the moment some data keys are under the new key and some still under the old.
      const watcher = (async () => {
        const documents = documentsRepository(during.app.services.db);
        while (state.rotating) {
          state.mixed = (await documents.countByKeyId()).length === 2;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const rotation = adminProcess(rotationEnv, 'keys:rotate', '--json').finally(() => {
        state.rotating = false;
      });
      const [result] = await Promise.all([rotation, watcher, ...readers]);
      expect(result.stderr).toBe('');
      const summary = JSON.parse(result.stdout) as RotationSummary;
      expect(summary).toMatchObject({
        keyId: idOf(NEW_KEY),
        rewrapped: sizes.length,
        sealed: 0,
        leftBehind: 0,
        byKeyId: [{ keyId: idOf(NEW_KEY), documents: sizes.length }],
      });
    } finally {
      await during.close();
    }
    expect(mismatches).toEqual([]);
    // How many reads overlapped the mixed state depends on scheduling (a read's audit write waits
    // for a rotation batch to commit), so it is reported, not asserted; encryption.test.ts reads a
    // mixed database deterministically.
    expect(reads).toBeGreaterThan(readsWhileMixed);

    // Step 3: the old key is no longer needed; every document reads back as it was written.
    const after = await serverWith({ DOCUMENT_KEY: NEW_KEY });
    try {
      // Every one through the repository (quicker), and some through the API.
      const { db, documentKeys } = after.app.services;
      expect(documentKeys.previous).toBeUndefined();
      for (const id of ids) {
        expect(sha256(await storedDocumentBytes(db, id, documentKeys))).toBe(digests.get(id));
      }
      for (const id of ids.slice(-20)) {
        expect(await digestOfDownload(after, id)).toBe(digests.get(id));
      }
      // Re-wrapping changed every document, which dropped the entities' list records: stored again.
      const withoutRecord = await db
        .selectFrom('entities')
        .leftJoin('entity_list_records', 'entity_list_records.entity_id', 'entities.id')
        .select('entities.id')
        .where('entity_list_records.entity_id', 'is', null)
        .execute();
      expect(withoutRecord).toEqual([]);
    } finally {
      await after.close();
    }
    await expect(serverWith({ DOCUMENT_KEY: OLD_KEY })).rejects.toThrow(
      `a stored document is under key id ${idOf(NEW_KEY)}, and this server holds key id ${idOf(OLD_KEY)} (DOCUMENT_KEY).`,
    );
  }, 120_000);

  it('says so when there is nothing to re-wrap, and prints what it did in plain text', async () => {
    const server = await serverWith({ DOCUMENT_KEY: NEW_KEY });
    await insertDocuments(server, [10, 20]).finally(() => server.close());
    const result = await admin({ DOCUMENT_KEY: NEW_KEY }, 'keys:rotate');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(
      `Re-wrapped 0 document keys under key id ${idOf(NEW_KEY)} (DOCUMENT_KEY); the documents' bytes were not touched.\nAll 2 documents are under key id ${idOf(NEW_KEY)}: the servers no longer need DOCUMENT_KEY_PREVIOUS.`,
    );
  });

  it('refuses documents under a key it was not given, re-wrapping nothing, and needs DOCUMENT_KEY', async () => {
    const server = await serverWith({ DOCUMENT_KEY: OLD_KEY });
    await insertDocuments(server, [10, 20, 30]).finally(() => server.close());
    const thirdKey = crypto.randomBytes(32).toString('base64');

    const unknown = await admin(
      { DOCUMENT_KEY: NEW_KEY, DOCUMENT_KEY_PREVIOUS: thirdKey },
      'keys:rotate',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `The document key does not match the key the documents were encrypted with: 3 under ${idOf(OLD_KEY)}, and this command holds key id ${idOf(NEW_KEY)} (DOCUMENT_KEY) and ${idOf(thirdKey)} (DOCUMENT_KEY_PREVIOUS). Nothing was re-wrapped.\n`,
    );

    const missing = await admin({}, 'keys:rotate');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('keys:rotate re-wraps the document keys under DOCUMENT_KEY');

    const stillOld = await serverWith({ DOCUMENT_KEY: OLD_KEY });
    try {
      const keyIds = await documentsRepository(stillOld.app.services.db).countByKeyId();
      expect(keyIds).toEqual([{ keyId: idOf(OLD_KEY), documents: 3 }]);
    } finally {
      await stillOld.close();
    }
  });
});

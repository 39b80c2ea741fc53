import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { onTestFinished } from 'vitest';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  documentDetailResponseSchema,
  legalEntityResponseSchema,
} from '../../contract/entities.ts';
import { createApp } from '../app.ts';
import { createAccount } from '../auth/accounts.ts';
import type { Db } from '../db/database.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { loadConfig } from '../env.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  TEST_DOCUMENT_KEY,
  testEngine,
  type TestServer,
} from '../testing/harness.ts';
import { keyIdOf } from './document-crypto.ts';
import { DOCUMENT_CHUNK_BYTES } from './repository.ts';
import { randomPdfBytes } from '../testing/document-files.ts';

const KEY_A = crypto.randomBytes(32).toString('base64');
const KEY_B = crypto.randomBytes(32).toString('base64');
const idOf = (key: string) => keyIdOf(Buffer.from(key, 'base64'));

/** A byte sequence found nowhere else: a document holding it must not show it at rest. */
function marker(): Buffer {
  return Buffer.from(`KYC-DESK-CLEAR-TEXT-${crypto.randomBytes(12).toString('hex')}`);
}

/** A PDF of `size` bytes with the marker near the start, across a piece boundary and at the end. */
function documentWith(mark: Buffer, size: number): Buffer {
  const bytes = randomPdfBytes(size);
  for (const at of [16, DOCUMENT_CHUNK_BYTES - 10, size - mark.length]) {
    if (at >= 0 && at + mark.length <= size) mark.copy(bytes, at);
  }
  return bytes;
}

/** Whether the marker is anywhere in the database at rest: the SQLite files, or the bytea column. */
async function foundAtRest(server: { dataDir: string; db: Db }, mark: Buffer): Promise<boolean> {
  if (testEngine === 'sqlite') {
    for (const suffix of ['', '-wal']) {
      const file = path.join(server.dataDir, `kyc-desk.sqlite${suffix}`);
      const bytes = await fs.readFile(file).catch(() => Buffer.alloc(0));
      if (bytes.includes(mark)) return true;
    }
    return false;
  }
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from document_chunks where position(${mark} in bytes) > 0`.execute(
    server.db,
  );
  return (rows[0]?.n ?? 0) > 0;
}

async function upload(server: TestServer, files: { name: string; bytes: Buffer }[]) {
  const response = await postLegalEntity(
    server,
    legalEntityPayload({
      supportingDocuments: files.map(({ name, bytes }) => ({
        fileName: name,
        type: 'Other',
        mimeType: 'application/octet-stream',
        file: bytes.toString('base64'),
      })),
    }),
  );
  expect(response.status, response.text).toBe(201);
  const entity = legalEntityResponseSchema.parse(response.body).data;
  // In the order given (the entity lists them by date, then id).
  return files.map(
    ({ name }) =>
      entity.supportingDocuments?.find((document) => document.fileName === name)?.documentId ?? '',
  );
}

async function download(server: TestServer, documentId: string): Promise<Buffer> {
  const response = await server.request(`/api/v2/documents/${documentId}`);
  expect(response.status, response.text).toBe(200);
  return Buffer.from(documentDetailResponseSchema.parse(response.body).data.file, 'base64');
}

/** A server on an existing database and DATA_DIR, which stay when it closes. */
function restart(on: { dataDir: string; databaseUrl: string | undefined }, env = {}) {
  return startTestServer({
    dataDir: on.dataDir,
    databaseUrl: on.databaseUrl,
    mode: 'embedded',
    env,
  });
}

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-encryption-'));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** A DATA_DIR and database for one test; dropped after it. */
async function freshStore() {
  const store = {
    dataDir: await fs.mkdtemp(path.join(root, 'data-')),
    databaseUrl: await newTestDatabaseUrl(),
  };
  onTestFinished(() => dropTestDatabaseUrl(store.databaseUrl));
  return store;
}

describe('documents at rest', () => {
  it('keeps uploaded bytes out of the database in the clear and downloads them byte for byte', async () => {
    const server = await startTestServer({ mode: 'embedded' });
    try {
      const mark = marker();
      const files = [
        { name: 'small.bin', bytes: documentWith(mark, 5_000) },
        { name: 'three-pieces.bin', bytes: documentWith(mark, 2 * DOCUMENT_CHUNK_BYTES + 77) },
        { name: 'tiny.pdf', bytes: Buffer.from('%PDF-') },
      ];
      const ids = await upload(server, files);
      for (const [index, id] of ids.entries()) {
        expect((await download(server, id)).equals(files[index]?.bytes ?? Buffer.alloc(1))).toBe(
          true,
        );
      }
      const db = server.app.services.db;
      expect(await foundAtRest({ dataDir: server.dataDir, db }, mark)).toBe(false);
      // Each piece is its ciphertext and a 16-byte tag, under the server's key.
      const stored = await db
        .selectFrom('documents')
        .select(['key_id', sql<number>`length(wrapped_key)`.as('wrapped'), 'file_size'])
        .select(
          sql<number>`(select sum(length(bytes)) from document_chunks where document_id = documents.id)`.as(
            'stored',
          ),
        )
        .where('id', 'in', ids)
        .orderBy('file_size')
        .execute();
      expect(stored).toEqual([
        {
          key_id: server.app.services.documentKeys.current.id,
          wrapped: 60,
          file_size: 5,
          stored: 21,
        },
        {
          key_id: server.app.services.documentKeys.current.id,
          wrapped: 60,
          file_size: 5_000,
          stored: 5_016,
        },
        {
          key_id: server.app.services.documentKeys.current.id,
          wrapped: 60,
          file_size: 2 * DOCUMENT_CHUNK_BYTES + 77,
          stored: 2 * DOCUMENT_CHUNK_BYTES + 77 + 3 * 16,
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it('encrypts documents stored in the clear before 0010 at the next start, leaving no clear bytes behind', async () => {
    const store = await freshStore();
    const mark = marker();
    const bytes = documentWith(mark, DOCUMENT_CHUNK_BYTES + 500);
    const documentId = crypto.randomUUID();
    const first = await restart(store);
    try {
      // As an earlier release (or an instance not yet upgraded) wrote it: no seal, bytes as sent.
      const { legalEntityId } = await insertLegalEntity(first.app.services.db);
      await first.app.services.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('documents')
          .values({
            id: documentId,
            entity_id: legalEntityId,
            file_name: 'old.bin',
            type: 'Other',
            description: null,
            date_received: '2025-01-01 00:00:00',
            approved: 0,
            mime_type: 'application/octet-stream',
            file_size: bytes.length,
            sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
            key_id: null,
            wrapped_key: null,
            nonce: null,
          })
          .execute();
        for (const [seq, offset] of [0, DOCUMENT_CHUNK_BYTES].entries()) {
          await trx
            .insertInto('document_chunks')
            .values({
              document_id: documentId,
              seq,
              bytes: bytes.subarray(offset, offset + DOCUMENT_CHUNK_BYTES),
            })
            .execute();
        }
      });
      // Served as it is until then, and the scan does find clear bytes.
      expect((await download(first, documentId)).equals(bytes)).toBe(true);
      expect(await foundAtRest({ ...store, db: first.app.services.db }, mark)).toBe(true);
    } finally {
      await first.close();
    }

    const second = await restart(store);
    try {
      const db = second.app.services.db;
      const row = await db
        .selectFrom('documents')
        .select('key_id')
        .where('id', '=', documentId)
        .executeTakeFirstOrThrow();
      expect(row.key_id).toBe(second.app.services.documentKeys.current.id);
      expect((await download(second, documentId)).equals(bytes)).toBe(true);
      expect(await foundAtRest({ ...store, db }, mark)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('refuses to start with a key that does not match the documents, and reads them with the old key as DOCUMENT_KEY_PREVIOUS', async () => {
    const store = await freshStore();
    const bytes = randomPdfBytes(3_000);
    const first = await restart(store, { DOCUMENT_KEY: KEY_A });
    const [documentId = ''] = await upload(first, [{ name: 'a.bin', bytes }]).finally(() =>
      first.close(),
    );

    await expect(restart(store, { DOCUMENT_KEY: KEY_B })).rejects.toThrow(
      `The document key does not match the key the documents were encrypted with: a stored document is under key id ${idOf(KEY_A)}, and this server holds key id ${idOf(KEY_B)} (DOCUMENT_KEY).`,
    );

    const during = await restart(store, { DOCUMENT_KEY: KEY_B, DOCUMENT_KEY_PREVIOUS: KEY_A });
    try {
      expect((await download(during, documentId)).equals(bytes)).toBe(true);
      const [newer = ''] = await upload(during, [{ name: 'b.bin', bytes }]);
      const keyIds = await during.app.services.db
        .selectFrom('documents')
        .select(['id', 'key_id'])
        .execute();
      expect(Object.fromEntries(keyIds.map((row) => [row.id, row.key_id]))).toEqual({
        [documentId]: idOf(KEY_A),
        [newer]: idOf(KEY_B),
      });
    } finally {
      await during.close();
    }
  });

  it('answers 500 with the generic message, never other bytes, for a wrong key id or altered bytes', async () => {
    const server = await startTestServer({ mode: 'embedded' });
    try {
      const small = randomPdfBytes(1_000);
      const large = randomPdfBytes(DOCUMENT_CHUNK_BYTES + 1_000);
      const [keyMoved = '', pieceAltered = '', laterPieceAltered = '', keyAltered = ''] =
        await upload(server, [
          { name: 'a.bin', bytes: small },
          { name: 'b.bin', bytes: small },
          { name: 'c.bin', bytes: large },
          { name: 'd.bin', bytes: small },
        ]);
      const db = server.app.services.db;
      await db
        .updateTable('documents')
        .set({ key_id: '0123456789abcdef' })
        .where('id', '=', keyMoved)
        .execute();
      await flipFirstByte(db, pieceAltered, 0);
      await flipFirstByte(db, laterPieceAltered, 1);
      const { wrapped_key: wrapped } = await db
        .selectFrom('documents')
        .select('wrapped_key')
        .where('id', '=', keyAltered)
        .executeTakeFirstOrThrow();
      const altered = Buffer.from(wrapped ?? Buffer.alloc(60));
      altered[20] = (altered[20] ?? 0) ^ 1;
      await db
        .updateTable('documents')
        .set({ wrapped_key: altered })
        .where('id', '=', keyAltered)
        .execute();

      for (const id of [keyMoved, pieceAltered, keyAltered]) {
        const response = await server.request(`/api/v2/documents/${id}`);
        expect(response.status).toBe(500);
        expect(errorEnvelopeSchema.parse(response.body).message).toBe(
          'Something went wrong on the server. The error has been logged.',
        );
      }
      // Headers are out before the second piece is read: the response ends short instead.
      await expect(server.request(`/api/v2/documents/${laterPieceAltered}`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});

async function flipFirstByte(db: Db, documentId: string, seq: number) {
  const { bytes } = await db
    .selectFrom('document_chunks')
    .select('bytes')
    .where('document_id', '=', documentId)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  const altered = Buffer.from(bytes);
  altered[0] = (altered[0] ?? 0) ^ 1;
  await db
    .updateTable('document_chunks')
    .set({ bytes: altered })
    .where('document_id', '=', documentId)
    .where('seq', '=', seq)
    .execute();
}

describe('the master key', () => {
  it('is generated once in DATA_DIR on SQLite (0600, with a warning), logged problems say what is wrong', async () => {
    const dataDir = await fs.mkdtemp(path.join(root, 'logged-'));
    const lines: string[] = [];
    const databaseUrl = await newTestDatabaseUrl();
    onTestFinished(() => dropTestDatabaseUrl(databaseUrl));
    const env = {
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY } : {}),
    };
    const start = async () =>
      createApp(
        { ...loadConfig(env), staticDir: undefined },
        { logger: { level: 'info', destination: { write: (line) => lines.push(line) } } },
      );
    const keyFile = path.join(dataDir, 'document-key');
    let app = await start();
    try {
      if (testEngine === 'sqlite') {
        const key = await fs.readFile(keyFile, 'utf8');
        expect(key).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
        expect(((await fs.stat(keyFile)).mode & 0o777).toString(8)).toBe('600');
        expect(lines.join('')).toContain(
          `Generated the document key in ${keyFile}, next to the database: anyone who copies both can read every document. In production set DOCUMENT_KEY (docs/security.md).`,
        );
        await app.close();
        app = await start();
        expect(await fs.readFile(keyFile, 'utf8')).toBe(key);
        expect(lines.join('')).toContain(`Documents are encrypted with the key in ${keyFile}`);
        expect(lines.join('')).not.toContain(key.trim());
      } else {
        // PostgreSQL: DOCUMENT_KEY only; nothing in DATA_DIR.
        await expect(fs.stat(keyFile)).rejects.toThrow();
      }

      const account = await createAccount(app.services.db, 'key-reviewer');
      const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${baseUrl}/api/v2/entities/legal-entities`, {
        method: 'POST',
        headers: { 'X-API-Key': account.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(
          legalEntityPayload({
            supportingDocuments: [
              { fileName: 'a.bin', type: 'Other', file: randomPdfBytes(99).toString('base64') },
              {
                fileName: 'b.bin',
                type: 'Other',
                file: randomPdfBytes(DOCUMENT_CHUNK_BYTES + 9).toString('base64'),
              },
            ],
          }),
        ),
      });
      const entity = legalEntityResponseSchema.parse(await response.json()).data;
      const idOfFile = (name: string) =>
        entity.supportingDocuments?.find((document) => document.fileName === name)?.documentId ??
        '';
      const documentId = idOfFile('a.bin');
      await flipFirstByte(app.services.db, documentId, 0);
      await flipFirstByte(app.services.db, idOfFile('b.bin'), 1);
      const cutShort = await fetch(`${baseUrl}/api/v2/documents/${idOfFile('b.bin')}`, {
        headers: { 'X-API-Key': account.apiKey },
      });
      await expect(cutShort.text()).rejects.toThrow();
      expect(lines.join('')).toContain(
        `Piece 1 of document ${idOfFile('b.bin')} failed authentication: its stored bytes were altered or damaged.`,
      );
      const altered = await fetch(`${baseUrl}/api/v2/documents/${documentId}`, {
        headers: { 'X-API-Key': account.apiKey },
      });
      expect(altered.status).toBe(500);
      expect(lines.join('')).toContain(
        `Piece 0 of document ${documentId} failed authentication: its stored bytes were altered or damaged.`,
      );
    } finally {
      await app.close();
    }
  });

  it.runIf(testEngine === 'postgres')('is required with DATABASE_URL', async () => {
    await expect(startTestServer({ mode: 'embedded', env: { DOCUMENT_KEY: '' } })).rejects.toThrow(
      'Configuration error: DOCUMENT_KEY must be set when DATABASE_URL is set: the same 32 random bytes in base64 on every instance',
    );
  });

  it.runIf(testEngine === 'sqlite')('refuses a damaged key file, naming it', async () => {
    const dataDir = await fs.mkdtemp(path.join(root, 'damaged-'));
    await fs.writeFile(path.join(dataDir, 'document-key'), 'not a key\n', { mode: 0o600 });
    await expect(startTestServer({ dataDir, mode: 'embedded' })).rejects.toThrow(
      `${path.join(dataDir, 'document-key')} must hold 32 bytes in base64, as openssl rand -base64 32 prints them; it was changed or damaged.`,
    );
  });

  it('is 32 bytes in base64: another value is a configuration error naming the variable, never echoing it', () => {
    for (const [name, value] of [
      ['DOCUMENT_KEY', 'c2hvcnQ='],
      ['DOCUMENT_KEY', KEY_A.slice(0, -1)],
      ['DOCUMENT_KEY_PREVIOUS', 'not base64 at all but long enough to be a key ='],
    ] as const) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(
        `Configuration error: ${name} must be 32 random bytes in base64 (44 characters ending in =), as openssl rand -base64 32 prints them.`,
      );
    }
    expect(loadConfig({ DOCUMENT_KEY: ` ${KEY_A}\n` }).documentKey).toEqual(
      Buffer.from(KEY_A, 'base64'),
    );
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { inject } from 'vitest';
import {
  documentDetailResponseSchema,
  legalEntityResponseSchema,
} from '../../contract/entities.ts';
import { runAdmin } from '../admin/run.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';
import { createTestDatabase, dropTestDatabase } from '../testing/postgres-server.ts';
import { SQLITE_FILE_NAME } from './maintenance.ts';
import { randomPdfBytes } from '../testing/document-files.ts';

async function admin(env: Record<string, string>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Every row of every table, in a stable order: two databases with equal dumps hold the same data. */
function dumpSqlite(file: string): Record<string, unknown[]> {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    const tables = sqlite
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%' order by name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => {
        const columns = sqlite.prepare(`select name from pragma_table_info(?)`).all(name).length;
        const order = columns > 1 ? '1, 2' : '1';
        return [name, sqlite.prepare(`select * from "${name}" order by ${order}`).all()];
      }),
    );
  } finally {
    sqlite.close();
  }
}

function soundness(file: string) {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    return {
      integrity: sqlite.pragma('integrity_check', { simple: true }),
      foreignKeyProblems: (sqlite.pragma('foreign_key_check') as unknown[]).length,
      // Every legal entity created through the API arrives with its primary contact, in one transaction.
      legalEntitiesWithoutContact: (
        sqlite
          .prepare(
            "select count(*) as n from legal_entities where entity_id not in (select legal_entity_id from entity_links where relationship = 'Primary Contact')",
          )
          .get() as { n: number }
      ).n,
    };
  } finally {
    sqlite.close();
  }
}

function create(server: TestServer, payload = legalEntityPayload()) {
  return server.request('/api/v2/entities/legal-entities', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
  });
}

describe.runIf(testEngine === 'sqlite')('db:backup and db:restore (embedded database)', () => {
  let server: TestServer;
  let scratch: string;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'embedded' });
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-backup-'));
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  });

  test('a backup taken under load is sound, and one taken at rest restores to an identical database', async () => {
    const env = { DATA_DIR: server.dataDir };
    const underLoad = path.join(scratch, 'under-load.sqlite');
    const writes = Array.from({ length: 40 }, () => create(server));
    const backup = await admin(env, 'db:backup', underLoad);
    const statuses = await Promise.all(writes.map(async (write) => (await write).status));
    expect(statuses.every((status) => status === 201)).toBe(true);
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toContain(`Backed up the database to ${underLoad}`);
    expect(soundness(underLoad)).toEqual({
      integrity: 'ok',
      foreignKeyProblems: 0,
      legalEntitiesWithoutContact: 0,
    });
    expect((await fs.stat(underLoad)).mode & 0o777).toBe(0o600);

    const atRest = path.join(scratch, 'at-rest.sqlite');
    expect((await admin(env, 'db:backup', atRest)).code).toBe(0);
    const restoredDir = path.join(scratch, 'restored');
    const restore = await admin({ DATA_DIR: restoredDir }, 'db:restore', atRest);
    expect(restore).toMatchObject({ code: 0, stderr: '' });
    // The two commands are audit events of their own, so the trails are compared apart.
    const { audit_events: restoredEvents, ...restoredTables } = dumpSqlite(
      path.join(restoredDir, SQLITE_FILE_NAME),
    );
    const { audit_events: liveEvents, ...liveTables } = dumpSqlite(
      path.join(server.dataDir, SQLITE_FILE_NAME),
    );
    expect(restoredTables).toEqual(liveTables);
    // The restored trail is the live one up to the backup, then the restore.
    expect(restoredEvents?.slice(0, -1)).toEqual(liveEvents?.slice(0, -1));
    expect(restoredEvents?.at(-1)).toMatchObject({ action: 'db.restore', actor: 'admin-cli' });

    // The restored database serves the same records.
    const restored = await startTestServer({ mode: 'embedded', dataDir: restoredDir });
    try {
      const listed = await restored.request('/api/v2/entities?limit=5', { auth: 'apiKey' });
      const original = await server.request('/api/v2/entities?limit=5');
      expect(listed.body).toEqual(original.body);
    } finally {
      await restored.close();
    }
  });

  test('a backup finishes while reads keep writing audit events without a pause', async () => {
    const env = { DATA_DIR: server.dataDir };
    // Every read writes an audit event: with one always in flight the database never rests.
    let reading = true;
    let reads = 0;
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) {
        expect((await server.request('/api/v2/entities?limit=1')).status).toBe(200);
        reads += 1;
      }
    });
    try {
      await vi.waitFor(() => expect(reads).toBeGreaterThan(20), { timeout: 10_000 });
      // The online backup API restarted whenever these reads' events landed between its steps and
      // never finished (the test timed out); one snapshot finishes whatever lands meanwhile.
      const busy = path.join(scratch, 'busy.sqlite');
      const backup = await admin(env, 'db:backup', busy);
      expect(backup).toMatchObject({ code: 0, stderr: '' });
      expect(soundness(busy)).toMatchObject({ integrity: 'ok', foreignKeyProblems: 0 });
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  test('a backup never overwrites a file, and restore refuses what is not a sound KYC Desk database', async () => {
    const env = { DATA_DIR: server.dataDir };
    const existing = path.join(scratch, 'existing.sqlite');
    await fs.writeFile(existing, 'keep me');
    expect(await admin(env, 'db:backup', existing)).toMatchObject({ code: 1 });
    expect(await fs.readFile(existing, 'utf8')).toBe('keep me');

    const target = path.join(scratch, 'refusing');
    const good = path.join(scratch, 'good.sqlite');
    expect((await admin(env, 'db:backup', good)).code).toBe(0);
    expect((await admin({ DATA_DIR: target }, 'db:restore', good)).code).toBe(0);
    const before = dumpSqlite(path.join(target, SQLITE_FILE_NAME));

    const notSqlite = path.join(scratch, 'not.sqlite');
    await fs.writeFile(notSqlite, 'plain text, not a database');
    const otherSqlite = path.join(scratch, 'other.sqlite');
    new SQLite(otherSqlite).exec('create table t (x)');
    for (const file of [notSqlite, otherSqlite, path.join(scratch, 'missing.sqlite')]) {
      const refused = await admin({ DATA_DIR: target }, 'db:restore', file);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(file);
    }
    expect(dumpSqlite(path.join(target, SQLITE_FILE_NAME))).toEqual(before);
  });

  test('with DATABASE_URL, backup and restore point to PostgreSQL’s own tools', async () => {
    const env = { DATA_DIR: server.dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const backup = await admin(env, 'db:backup', path.join(scratch, 'pg.dump'));
    expect(backup.code).toBe(1);
    expect(backup.stderr).toContain('pg_dump');
    const restore = await admin(env, 'db:restore', path.join(scratch, 'pg.dump'));
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('pg_restore');
  });
});

describe.runIf(testEngine === 'postgres')('db:copy-to-postgres', () => {
  test('copies every row and document byte for byte, verified, and refuses a database in use', async () => {
    // The embedded default: SQLite, documents under the key file in DATA_DIR.
    const source = await startTestServer({
      mode: 'embedded',
      env: { DATABASE_URL: '', DOCUMENT_KEY: '' },
    });
    const target = await createTestDatabase(inject('postgresServerUrl'));
    try {
      const bytes = randomPdfBytes(300_000);
      const created = await create(
        source,
        legalEntityPayload({
          supportingDocuments: [
            {
              fileName: 'statement.pdf',
              type: 'Bank Statement',
              mimeType: 'application/pdf',
              file: bytes.toString('base64'),
            },
          ],
        }),
      );
      expect(created.status).toBe(201);
      const entity = legalEntityResponseSchema.parse(created.body).data;
      const documentId = entity.supportingDocuments?.[0]?.documentId ?? '';

      const env = { DATA_DIR: source.dataDir };
      const copy = await admin(env, 'db:copy-to-postgres', target, '--json');
      expect(copy).toMatchObject({ code: 0, stderr: '' });
      const report = JSON.parse(copy.stdout) as { tables: { table: string; rows: number }[] };
      expect(report.tables.find((row) => row.table === 'legal_entities')?.rows).toBeGreaterThan(0);

      const again = await admin(env, 'db:copy-to-postgres', target);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('copy into a new, empty database');

      // A server on the copy answers as the original did, document bytes included.
      // The documents stay sealed under the source's key file: its key becomes DOCUMENT_KEY.
      const documentKey = await fs.readFile(path.join(source.dataDir, 'document-key'), 'utf8');
      const copied = await startTestServer({
        mode: 'embedded',
        dataDir: source.dataDir,
        databaseUrl: target,
        env: { DOCUMENT_KEY: documentKey.trim() },
      });
      try {
        const path = `/api/v2/entities/legal-entities/${entity.id}`;
        const auth = { auth: 'none' as const, headers: { 'X-API-Key': source.account.apiKey } };
        expect((await copied.request(path, auth)).body).toEqual((await source.request(path)).body);
        const document = documentDetailResponseSchema.parse(
          (await copied.request(`/api/v2/documents/${documentId}`, auth)).body,
        ).data;
        expect(Buffer.from(document.file, 'base64').equals(bytes)).toBe(true);
      } finally {
        await copied.close();
      }
    } finally {
      await source.close();
      await dropTestDatabase(target);
    }
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { openDatabase } from './database.ts';
import type { Database } from './schema.ts';

export const SQLITE_FILE_NAME = 'kyc-desk.sqlite';

/** Tables in an order that satisfies every foreign key when rows are inserted. */
const TABLES_IN_DEPENDENCY_ORDER = [
  'accounts',
  'sessions',
  'app_settings',
  'client_update_configs',
  'entities',
  'legal_entities',
  'natural_persons',
  'entity_links',
  'verifications',
  'documents',
  'entity_list_records',
  'document_chunks',
  'client_update_requests',
  'client_update_attempts',
  'client_responses',
  'idempotency_keys',
  'sign_in_attempts',
  'relayed_client_update_requests',
  'audit_anchor',
  'audit_events',
  'gateway_sessions',
  'gateway_revoked_tokens',
  'gateway_roles',
  'pending_verifications',
  'person_reviews',
  'notes',
  'gateway_notes',
  'webhook_events',
  'gateway_assignments',
  'gateway_reviewers',
] as const satisfies readonly (keyof Database)[];

/** Tables the target's triggers fill as the copied rows arrive: copying them would count twice. */
type KeptByTriggers = Extract<keyof Database, 'entity_index_counts' | 'entity_index_count_deltas'>;

type TableName = (typeof TABLES_IN_DEPENDENCY_ORDER)[number];
/** Fails to compile when a table is added to the schema and not to the copy. */
export const everyTableCopied: [Exclude<keyof Database, TableName | KeptByTriggers>] extends [never]
  ? true
  : never = true;

/** Rows read and written per statement while copying; well under PostgreSQL's 65,535 parameters. */
const COPY_BATCH_ROWS = 500;

/**
 * A consistent copy of the embedded database while servers keep writing to it: `VACUUM INTO` reads
 * one WAL snapshot, so writers go on and the copy never restarts (the online backup API restarted
 * on every write and only finished once traffic stopped). Written to a temporary name, then renamed,
 * mode 0600.
 */
export function backupSqlite(dataDir: string, target: string): { bytes: number } {
  const source = path.join(dataDir, SQLITE_FILE_NAME);
  if (!fs.existsSync(source)) throw new Error(`There is no database in ${dataDir} to back up.`);
  const destination = path.resolve(target);
  if (fs.existsSync(destination)) {
    throw new Error(`${destination} already exists; choose a new file name for the backup.`);
  }
  const partial = `${destination}.partial`;
  const sqlite = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    sqlite.prepare('vacuum into ?').run(partial);
  } finally {
    sqlite.close();
  }
  fs.chmodSync(partial, 0o600);
  assertSoundSqlite(partial);
  fs.renameSync(partial, destination);
  return { bytes: fs.statSync(destination).size };
}

/**
 * Puts a backup in place of the embedded database. Every server on DATA_DIR must be stopped
 * first; the backup is checked (integrity, a KYC Desk schema) before anything is replaced, and
 * the current database is kept beside it as `kyc-desk.sqlite.before-restore-<time>`.
 */
export function restoreSqlite(
  dataDir: string,
  backupFile: string,
  now: Date,
): { keptAs: string | undefined } {
  const backup = path.resolve(backupFile);
  if (!fs.existsSync(backup)) throw new Error(`${backup} does not exist.`);
  assertSoundSqlite(backup);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const live = path.join(dataDir, SQLITE_FILE_NAME);
  const incoming = `${live}.restoring`;
  fs.copyFileSync(backup, incoming);
  fs.chmodSync(incoming, 0o600);
  let keptAs: string | undefined;
  if (fs.existsSync(live)) {
    // Folds the write-ahead log into the file, so the kept copy is whole on its own.
    const current = new SQLite(live);
    current.pragma('wal_checkpoint(TRUNCATE)');
    current.close();
    keptAs = `${live}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(live, keptAs);
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${live}${suffix}`, { force: true });
  fs.renameSync(incoming, live);
  return { keptAs };
}

function assertSoundSqlite(file: string): void {
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new Error(`${file} is not a SQLite database.`);
  }
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${file} is damaged: ${String(integrity)}.`);
    const tables = sqlite
      .prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .all();
    if (tables.length === 0) throw new Error(`${file} is not a KYC Desk database.`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(file)) throw error;
    throw new Error(`${file} is not a KYC Desk database.`, { cause: error });
  } finally {
    sqlite.close();
  }
}

export interface CopyReport {
  tables: { table: TableName; rows: number }[];
  documentBytes: number;
  /** SHA-256 over every document piece, in order, on each side: equal when the bytes are. */
  documentDigest: string;
}

/**
 * Copies every row of the embedded database in `dataDir` into the empty PostgreSQL database at
 * `databaseUrl` (migrated first), in one transaction, then verifies: the row count of every table
 * and a digest of every document's bytes must be equal on both sides, or the copy is rolled back.
 */
export async function copySqliteToPostgres(
  dataDir: string,
  databaseUrl: string,
  onProgress: (line: string) => void = () => undefined,
): Promise<CopyReport> {
  if (!fs.existsSync(path.join(dataDir, SQLITE_FILE_NAME))) {
    throw new Error(`There is no database in ${dataDir} to copy.`);
  }
  const { db: source } = await openDatabase(dataDir);
  const { db: target } = await openDatabase(dataDir, databaseUrl);
  try {
    for (const table of ['entities', 'accounts'] as const) {
      const row = await target.selectFrom(table).select('id').limit(1).executeTakeFirst();
      if (row) {
        throw new Error(
          `The PostgreSQL database already holds ${table}; copy into a new, empty database.`,
        );
      }
    }
    const report = await target.transaction().execute(async (trx) => {
      // The migrations' own rows (the shipped e-mail configurations) give way to the copied ones.
      await trx.deleteFrom('client_update_configs').execute();
      await trx.deleteFrom('app_settings').execute();
      const tables: CopyReport['tables'] = [];
      for (const table of TABLES_IN_DEPENDENCY_ORDER) {
        const rows = await copyTable(source, trx, table);
        onProgress(`${table}: ${String(rows)} rows`);
        tables.push({ table, rows });
      }
      // Copied positions were given, not drawn: the sequence continues after the highest.
      await sql`select setval(pg_get_serial_sequence('relayed_client_update_requests', 'position'), coalesce(max(position), 0) + 1, false) from relayed_client_update_requests`.execute(
        trx,
      );
      await verifySameContent(source, trx, tables);
      const original = await documentHashes(source);
      const copied = await documentHashes(trx);
      const digest = digestOf(original.hashes);
      if (digest !== digestOf(copied.hashes) || original.bytes !== copied.bytes) {
        throw new Error('The copied document bytes differ from the originals; nothing was kept.');
      }
      // Each document's bytes also match the SHA-256 recorded when it was uploaded; sealed ones
      // are copied as they are (their GCM tags authenticate them) and need the same key.
      const recorded = await trx
        .selectFrom('documents')
        .select(['id', 'sha256', 'file_size', 'key_id'])
        .execute();
      for (const document of recorded.filter((row) => row.key_id === null)) {
        const hash = copied.hashes.get(document.id) ?? crypto.createHash('sha256').digest('hex');
        if (hash !== document.sha256) {
          throw new Error(
            `Document ${document.id} does not match its recorded SHA-256; nothing was kept.`,
          );
        }
      }
      onProgress(
        `documents: ${String(recorded.length)} files, ${String(original.bytes)} bytes, identical`,
      );
      return { tables, documentBytes: original.bytes, documentDigest: digest };
    });
    // Plans need statistics and the visibility map now, not when autovacuum next looks (docs/performance.md).
    await sql`vacuum (analyze)`.execute(target);
    return report;
  } finally {
    await target.destroy();
    await source.destroy();
  }
}

/** Copies `table` a page at a time in rowid order (the SQLite side's physical order). */
async function copyTable(source: Db, target: Db, table: TableName): Promise<number> {
  let copied = 0;
  let afterRowid = 0;
  for (;;) {
    const { rows } = await sql<
      Record<string, unknown> & { copy_rowid: number }
    >`select rowid as copy_rowid, * from ${sql.table(table)} where rowid > ${afterRowid} order by rowid limit ${COPY_BATCH_ROWS}`.execute(
      source,
    );
    const last = rows[rows.length - 1];
    if (!last) return copied;
    const values = rows.map(({ copy_rowid: _rowid, ...columns }) => columns);
    await target.insertInto(table).values(values).execute();
    copied += rows.length;
    afterRowid = last.copy_rowid;
  }
}

async function verifySameContent(source: Db, target: Db, tables: CopyReport['tables']) {
  for (const { table, rows } of tables) {
    const counted = await target
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const original = await source
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (counted.n !== rows || original.n !== rows) {
      throw new Error(
        `${table}: ${String(original.n)} rows in SQLite but ${String(counted.n)} copied; nothing was kept.`,
      );
    }
  }
}

/**
 * The SHA-256 of each document's bytes, read piece by piece, and their total size. Independent of
 * the engine's text ordering, so both sides can be compared.
 */
async function documentHashes(db: Db): Promise<{ hashes: Map<string, string>; bytes: number }> {
  const hashes = new Map<string, string>();
  let bytes = 0;
  let current: { documentId: string; hash: crypto.Hash } | undefined;
  let after: { documentId: string; seq: number } | undefined;
  const finish = () => {
    if (current) hashes.set(current.documentId, current.hash.digest('hex'));
  };
  for (;;) {
    let query = db
      .selectFrom('document_chunks')
      .select(['document_id', 'seq', 'bytes'])
      .orderBy('document_id')
      .orderBy('seq')
      .limit(COPY_BATCH_ROWS);
    if (after) {
      const { documentId, seq } = after;
      query = query.where((eb) =>
        eb.or([
          eb('document_id', '>', documentId),
          eb.and([eb('document_id', '=', documentId), eb('seq', '>', seq)]),
        ]),
      );
    }
    const rows = await query.execute();
    if (rows.length === 0) {
      finish();
      return { hashes, bytes };
    }
    for (const row of rows) {
      if (current?.documentId !== row.document_id) {
        finish();
        current = { documentId: row.document_id, hash: crypto.createHash('sha256') };
      }
      current.hash.update(row.bytes);
      bytes += row.bytes.length;
    }
    const last = rows[rows.length - 1];
    if (last) after = { documentId: last.document_id, seq: last.seq };
  }
}

/** One digest over every document's hash, in an order both engines agree on. */
function digestOf(hashes: Map<string, string>): string {
  const lines = [...hashes].map(([id, hash]) => `${id}:${hash}`).sort();
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

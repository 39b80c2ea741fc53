import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type Driver,
} from 'kysely';
import { ensurePrivateDirectory, ensurePrivateFile, restrictFile } from './data-dir.ts';
import type { DatabaseObserver } from './database-faults.ts';
import type { Engine } from './engine.ts';
import { migrateToLatest } from './migrate.ts';
import { observeDriver } from './observed-driver.ts';
import { openPostgres, type OnConnectionLost } from './postgres.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/**
 * PostgreSQL when `databaseUrl` is given, otherwise the embedded SQLite file in `dataDir`;
 * migrated to the newest schema either way (derived data the migrations asked for is rebuilt by
 * the caller, derived-data.ts). `onConnectionLost` hears of PostgreSQL connections the server
 * closed while idle (a process warning if not given); `observer` hears every query's outcome (the
 * server's health, database-faults.ts).
 */
export async function openDatabase(
  dataDir: string,
  databaseUrl?: string,
  onConnectionLost?: OnConnectionLost,
  observer: DatabaseObserver = ignoreOutcomes,
): Promise<{ db: Db; engine: Engine }> {
  // DATA_DIR holds the outbox on either engine, and the database itself on SQLite.
  ensurePrivateDirectory(dataDir);
  if (databaseUrl !== undefined) {
    return {
      db: await openPostgres(databaseUrl, onConnectionLost, observer),
      engine: 'postgres',
    };
  }
  return { db: await openSqlite(dataDir, observer), engine: 'sqlite' };
}

const ignoreOutcomes: DatabaseObserver = { failed: () => undefined, succeeded: () => undefined };

/**
 * Opens (creating if needed) `DATA_DIR/kyc-desk.sqlite`, sets pragmas and migrates. The database
 * files are 0600, whatever the umask.
 */
async function openSqlite(dataDir: string, observer: DatabaseObserver): Promise<Db> {
  const file = path.join(dataDir, 'kyc-desk.sqlite');
  ensurePrivateFile(file);
  const sqlite = new SQLite(file);
  // Another process (admin CLI, a second server) may hold the write lock briefly.
  sqlite.pragma(`busy_timeout = ${String(BUSY_TIMEOUT_MS)}`);
  await switchToWriteAheadLog(sqlite);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // 16 MB page cache: the default 2 MB is outgrown by the random-UUID indexes at 100,000 entities;
  // 32 MB served cache-missing list pages no faster (about 0.43 ms a page either way), held more.
  sqlite.pragma('cache_size = -16384');
  // No mmap_size: mapped pages count as resident memory (about 100 MB more at 100,000 entities).
  sqlite.pragma('temp_store = memory');
  // A checkpoint every 10,000 WAL pages (about 40 MB), not 1,000: it copies each page once however
  // often it changed. Side by side: creates 1.3-1.4x, by id 1.05x the throughput; p99 of creates 43 -> 59 ms.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const db = new Kysely<Database>({
    dialect: new ObservedSqliteDialect({ database: asKyselyConnection(sqlite) }, (driver) =>
      observeDriver(driver, observer, async (connection) => {
        // SQLite itself rolls back on SQLITE_FULL, IOERR and some BUSY errors; a second rollback
        // would fail with "no transaction is active" and hide the error that caused it.
        if (!sqlite.inTransaction) return;
        await connection.executeQuery(CompiledQuery.raw('rollback'));
      }),
    ),
  });
  await migrateToLatest(db as unknown as Kysely<unknown>);
  // SQLite gives -wal and -shm the database file's mode; ones left by an older start may be wider.
  for (const suffix of ['-wal', '-shm']) restrictFile(`${file}${suffix}`);
  return db;
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * Switching a new file to WAL reads its header and then takes the write lock, and SQLite runs no
 * busy handler for that second step: of two processes creating one DATA_DIR at once, one failed
 * with "database is locked" at once. It retries within the busy timeout instead; once the file is
 * WAL, the pragma takes no write lock.
 */
async function switchToWriteAheadLog(sqlite: SQLite.Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = error instanceof SQLite.SqliteError && error.code.startsWith('SQLITE_BUSY');
      if (!busy || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Prepared statements kept per SQL text: preparing costs more than running most of our queries. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely sees it. Kysely prepares every query anew; this keeps the most recently
 * used statements (Kysely runs one query at a time on its one connection, a stream included, so a
 * statement is never in use twice). And Kysely opens SQLite transactions with a deferred BEGIN: one
 * that reads and then writes fails with SQLITE_BUSY at once when another process wrote in between.
 * BEGIN IMMEDIATE takes the write lock up front and waits for it (busy_timeout) instead.
 */
function asKyselyConnection(sqlite: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  function prepare(source: string): SQLite.Statement {
    const text = source.trim().toLowerCase() === 'begin' ? 'begin immediate' : source;
    let statement = statements.get(text);
    if (statement) {
      // Re-inserted so that Map order is least recently used first.
      statements.delete(text);
    } else {
      statement = sqlite.prepare(text);
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
    }
    statements.set(text, statement);
    return statement;
  }
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/**
 * Kysely's SQLite adapter says DDL is not transactional, so its migrator runs without a transaction
 * or lock, and two processes starting on one DATA_DIR both apply the same migration. SQLite's DDL
 * is transactional: saying so makes every migration run in one BEGIN IMMEDIATE transaction that
 * reads the applied migrations only once it holds the write lock.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ObservedSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly observe: (driver: Driver) => Driver,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    return this.observe(super.createDriver());
  }
}

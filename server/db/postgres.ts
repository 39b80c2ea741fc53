import { CompiledQuery, Kysely, PostgresDialect, type PostgresDialectConfig } from 'kysely';
import pg from 'pg';
import { databaseFaultOf, type DatabaseObserver } from './database-faults.ts';
import { migrateToLatest } from './migrate.ts';
import { observeDriver } from './observed-driver.ts';
import { answerBinaryCopies } from './postgres-binary-copy.ts';
import { runPreparedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

/** bigint (count(*), millisecond times) and numeric (sum()) as numbers, as SQLite gives them. */
const types = new pg.TypeOverrides();
types.setTypeParser(pg.types.builtins.INT8, Number);
types.setTypeParser(pg.types.builtins.NUMERIC, Number);

/** Every transaction takes this lock first: writers queue as on SQLite (BEGIN IMMEDIATE). */
export const WRITE_LOCK_KEY = 0x6b7963; // "kyc"

/** BEGIN and the write lock as one simple query (the key is a constant, so no parameter). */
const BEGIN_AND_LOCK = `begin; select pg_advisory_xact_lock(${String(WRITE_LOCK_KEY)})`;

/** Told when the server closes a pooled connection; the pool opens another on demand. */
export type OnConnectionLost = (lost: { code: string | undefined; message: string }) => void;

const warnConnectionLost: OnConnectionLost = ({ code, message }) => {
  process.emitWarning(
    `A PostgreSQL connection was closed by the server (${code ?? 'no code'}): ${message}`,
  );
};

/**
 * A pool to `databaseUrl`, migrated to the newest schema. Transactions begin by taking one
 * advisory lock, so check-then-write work (duplicates, idempotency keys, sign-in limits) is
 * serialised across every instance exactly as SQLite's single writer serialises it.
 */
export async function openPostgres(
  databaseUrl: string,
  onConnectionLost: OnConnectionLost = warnConnectionLost,
  observer: DatabaseObserver = { failed: () => undefined, succeeded: () => undefined },
): Promise<Kysely<Database>> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    // A database host that swallows packets fails the request (503) instead of holding it forever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types,
  });
  // A connection ended by the server (restart, failover, pg_terminate_backend) is an 'error' event
  // on its client, idle or checked out, which would end the process unheard: each client reports
  // its first one, and the query or transaction using it fails on its own. Only code and message
  // are passed on: the error also carries the client, whose connection parameters hold the password.
  const reported = new WeakSet<pg.PoolClient>();
  const reportLoss = (client: pg.PoolClient, error: Error & { code?: string }) => {
    if (reported.has(client)) return;
    reported.add(client);
    onConnectionLost({ code: error.code, message: error.message });
  };
  pool.on('connect', (client) => {
    answerBinaryCopies(client);
    runPreparedStatements(client);
    client.on('error', (error: Error & { code?: string }) => {
      reportLoss(client, error);
    });
  });
  pool.on('error', (error: Error & { code?: string }, client) => {
    reportLoss(client, error);
  });
  const db = new Kysely<Database>({ dialect: new LockingPostgresDialect({ pool }, observer) });
  await migrateToLatest(db as unknown as Kysely<unknown>);
  return db;
}

/** How long a request waits for a new connection before it fails as an outage. */
const CONNECT_TIMEOUT_MS = 5_000;

class LockingPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly observer: DatabaseObserver,
  ) {
    super(config);
  }

  override createDriver() {
    const driver = super.createDriver();
    const begin = driver.beginTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.beginTransaction = async (connection, settings) => {
      if (settings.isolationLevel !== undefined || settings.accessMode !== undefined) {
        await begin(connection, settings);
        await connection.executeQuery(
          CompiledQuery.raw('select pg_advisory_xact_lock($1)', [WRITE_LOCK_KEY]),
        );
        return;
      }
      // One round trip, not two, for every transaction (each audit append among them): without
      // parameters pg sends a simple query, which may hold both statements.
      try {
        await connection.executeQuery(CompiledQuery.raw(BEGIN_AND_LOCK));
      } catch (error) {
        // Kysely rolls back only a transaction whose begin succeeded: one begun here is ended here.
        await rollback(connection).catch(() => undefined);
        throw error;
      }
    };
    return observeDriver(driver, this.observer, async (connection) => {
      try {
        await rollback(connection);
      } catch (error) {
        // The connection is gone (and discarded): the transaction's own error is the one to report.
        if (databaseFaultOf(error) !== 'unavailable') throw error;
      }
    });
  }
}

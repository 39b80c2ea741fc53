/**
 * The two database faults the server answers in their own words (docs/deployment.md#faults):
 * the storage is full (507), or the database cannot be reached (503 with Retry-After).
 */
export type DatabaseFault = 'storage-full' | 'unavailable';

/** Seconds a client is told to wait (Retry-After) while the database cannot be reached. */
export const RETRY_AFTER_SECONDS = 5;

/** SQLite's and PostgreSQL's words for "no space left", and the operating system's. */
const STORAGE_FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);

/**
 * PostgreSQL SQLSTATEs of a server going away or refusing connections (admin_shutdown,
 * crash_shutdown, cannot_connect_now, too_many_connections, class 08 connection exceptions).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** Socket errors of a database host that is down, unreachable or cut the connection. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres raises these without a code when a connection ends or cannot be had in time. */
const UNAVAILABLE_PG_MESSAGES =
  /^Connection terminated|timeout exceeded when trying to connect|is not queryable$/;

function faultOfOne(error: { code?: unknown; message?: unknown }): DatabaseFault | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (STORAGE_FULL_CODES.has(code) || message.includes('No space left on device')) {
    return 'storage-full';
  }
  if (
    code.startsWith('SQLITE_BUSY') ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    UNAVAILABLE_SQLSTATES.has(code) ||
    UNAVAILABLE_SOCKET_CODES.has(code) ||
    UNAVAILABLE_PG_MESSAGES.test(message)
  ) {
    return 'unavailable';
  }
  return undefined;
}

/**
 * Which fault `error` is, looking through `cause` and an AggregateError's `errors` (Node's
 * connect to a host with several addresses), or undefined for any other error.
 */
export function databaseFaultOf(error: unknown, depth = 0): DatabaseFault | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const own = faultOfOne(error);
  if (own) return own;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  const fromCause = databaseFaultOf(cause, depth + 1);
  if (fromCause) return fromCause;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const fault = databaseFaultOf(inner, depth + 1);
      if (fault) return fault;
    }
  }
  return undefined;
}

/** What the database layer tells about each query: a fault, or a success (and whether it wrote). */
export interface DatabaseObserver {
  failed(fault: DatabaseFault, error: unknown): void;
  succeeded(wrote: boolean): void;
}

/** The logger calls the health monitor makes (pino's signature, as app.log has it). */
export interface HealthLog {
  error(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

export interface DatabaseHealth extends DatabaseObserver {
  /** Faults that hold now: each starts with its first failure and ends with the next success. */
  current(): { unavailable: boolean; storageFull: boolean };
}

/** How often, at most, a continuing outage is logged again (with the count of failures). */
const OUTAGE_LOG_INTERVAL_MS = 60_000;

function describe(error: unknown): { code: string | undefined; cause: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    cause: typeof message === 'string' ? message : 'unknown',
  };
}

/**
 * The database's state as the queries find it, logged once per change rather than once per
 * request: "storage full" then "storage writable again"; "database unavailable", then a count a
 * minute while it lasts, then "database back". An error is counted once, however often reported.
 */
export function createDatabaseHealth(log: HealthLog, now: () => number = Date.now): DatabaseHealth {
  const seen = new WeakSet<object>();
  let unavailableSince: number | undefined;
  let lastOutageLine = 0;
  let failuresSinceLine = 0;
  let failuresInOutage = 0;
  // SQLite's write lock held past busy_timeout: reads still answer, so only a write ends it.
  let outageOfWritesOnly = false;
  let storageFullSince: number | undefined;
  let refusedWrites = 0;

  function databaseBack() {
    if (unavailableSince === undefined) return;
    log.warn(
      {
        failedQueries: failuresInOutage,
        outageSeconds: Math.round((now() - unavailableSince) / 1000),
      },
      'database back: queries succeed again',
    );
    unavailableSince = undefined;
  }

  return {
    failed(fault, error) {
      if (typeof error === 'object' && error !== null) {
        if (seen.has(error)) return;
        seen.add(error);
      }
      if (fault === 'storage-full') {
        // The database answered, so it is reachable.
        databaseBack();
        refusedWrites += 1;
        if (storageFullSince === undefined) {
          storageFullSince = now();
          refusedWrites = 1;
          log.error(describe(error), 'storage full: writes are refused until space is freed');
        }
        return;
      }
      failuresInOutage += 1;
      failuresSinceLine += 1;
      const writesOnly = describe(error).code?.startsWith('SQLITE_BUSY') ?? false;
      if (!writesOnly) outageOfWritesOnly = false;
      if (unavailableSince === undefined) {
        outageOfWritesOnly = writesOnly;
        unavailableSince = now();
        lastOutageLine = unavailableSince;
        failuresInOutage = 1;
        failuresSinceLine = 0;
        log.error(describe(error), 'database unavailable: requests get 503 until it answers');
      } else if (now() - lastOutageLine >= OUTAGE_LOG_INTERVAL_MS) {
        log.error(
          { failedQueries: failuresSinceLine, ...describe(error) },
          `database still unavailable: ${String(failuresSinceLine)} failed queries since the last line`,
        );
        lastOutageLine = now();
        failuresSinceLine = 0;
      }
    },
    succeeded(wrote) {
      if (wrote || !outageOfWritesOnly) databaseBack();
      if (wrote && storageFullSince !== undefined) {
        log.warn(
          {
            refusedQueries: refusedWrites,
            fullSeconds: Math.round((now() - storageFullSince) / 1000),
          },
          'storage writable again',
        );
        storageFullSince = undefined;
      }
    },
    current() {
      return {
        unavailable: unavailableSince !== undefined,
        storageFull: storageFullSince !== undefined,
      };
    },
  };
}

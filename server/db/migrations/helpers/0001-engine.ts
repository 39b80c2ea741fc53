import { type DialectAdapter, type Kysely, PostgresAdapter, sql } from 'kysely';

/** Which engine the migration runs on: a frozen copy of db/engine.ts's engineOf as of 0001. */
export function engineOf(db: {
  getExecutor(): { readonly adapter: DialectAdapter };
}): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * A column compared ignoring case in an index: `collate nocase` on SQLite, `lower()` on
 * PostgreSQL (whose repositories compare `lower(column)` to match).
 */
export function ignoringCase(db: Kysely<unknown>, column: string) {
  return engineOf(db) === 'postgres'
    ? sql.raw(`lower(${column})`)
    : sql.raw(`${column} collate nocase`);
}

/** Bytes: `blob` on SQLite, `bytea` on PostgreSQL. */
export function bytesType(db: Kysely<unknown>) {
  return engineOf(db) === 'postgres' ? 'bytea' : 'blob';
}

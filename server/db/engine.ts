import { type DialectAdapter, PostgresAdapter } from 'kysely';

/** The two database engines: embedded SQLite (the default) and PostgreSQL (`DATABASE_URL`). */
export type Engine = 'sqlite' | 'postgres';

/** Which engine a Kysely instance talks to, for the few places where the SQL differs. */
export function engineOf(db: { getExecutor(): { readonly adapter: DialectAdapter } }): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A unique index or primary key refused a row, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

/** A foreign key refused a change (a row still referenced), on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

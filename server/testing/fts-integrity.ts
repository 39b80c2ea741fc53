import { sql, type Kysely } from 'kysely';

/** Runs SQLite FTS5's `integrity-check` on `index`; rejects when the index disagrees with itself. */
export function checkFtsIndex<DB>(db: Kysely<DB>, index: string): Promise<unknown> {
  return sql`insert into ${sql.table(index)} (${sql.ref(index)}, rank) values ('integrity-check', 1)`.execute(
    db,
  );
}

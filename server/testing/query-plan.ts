import { CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';

/** SQLite's plan for a query a repository builds, one line per step (EXPLAIN QUERY PLAN). */
export async function queryPlanOf<DB>(
  db: Kysely<DB>,
  query: Compilable | RawBuilder<unknown>,
): Promise<string[]> {
  const compiled = 'as' in query ? query.compile(db) : query.compile();
  const { rows } = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((row) => row.detail);
}

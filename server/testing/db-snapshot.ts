import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';

/** Every request is recorded, refused ones too: the audit trail grows by design. */
const GROWS_WITH_EVERY_REQUEST = new Set(['audit_events']);

/**
 * Row counts of every table (FTS shadow tables included) but the audit trail, to show a request
 * changed nothing.
 */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables =
    engineOf(db) === 'postgres'
      ? await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name
        `.execute(db)
      : await sql<{ name: string }>`
          select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name
        `.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows.filter((table) => !GROWS_WITH_EVERY_REQUEST.has(table.name))) {
    const result = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(
      db,
    );
    counts[name] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

/** The envelope and nothing else: no HTML page, no stack trace, whatever went wrong. */
export function looksLikeLeak(text: string): boolean {
  return /<html|<!doctype|\n\s+at [^\n]*:\d+:\d+|node_modules|\/work\/|SqliteError|SQLITE_/i.test(
    text,
  );
}

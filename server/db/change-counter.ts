import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * The database's version for what reads derive from the entity tables: the counter every write to
 * them bumps in its own transaction (migrations 0007 and 0014), on every instance alike.
 */
export async function entityDataVersion(db: Db): Promise<string> {
  const { rows } = await sql<{
    version: number | string;
  }>`select version from change_counter where id = 1`.execute(db);
  const row = rows[0];
  if (!row) throw new Error('change_counter has no row.');
  return String(row.version);
}

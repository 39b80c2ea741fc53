import { sql } from 'kysely';
import type { Db } from './database.ts';
import { compiledOnce, firstRowOf } from './prepared-statements.ts';

/**
 * The database's version for what reads derive from the entity tables: the counter every write to
 * them bumps in its own transaction (migrations 0007 and 0014), on every instance alike. As an
 * expression, so that a query a request makes anyway (identifying its caller) can read it too.
 */
export const entityDataVersionExpression = sql<
  number | string
>`(select version from change_counter where id = 1)`;

/** The version alone: every cache miss reads it, so it is compiled once and prepared. */
const versionQuery = compiledOnce((db: Db) => ({
  compile: () =>
    sql<{
      version: number | string | null;
    }>`select ${entityDataVersionExpression} as version`.compile(db),
}));

export async function entityDataVersion(db: Db): Promise<string> {
  const version = (await firstRowOf(db, versionQuery(db)))?.version;
  if (version === undefined || version === null) throw new Error('change_counter has no row.');
  return String(version);
}

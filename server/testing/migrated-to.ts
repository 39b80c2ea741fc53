import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import { testEngine } from './harness.ts';

/**
 * A database on the engine under test migrated up to `key` and no further (openDatabase would
 * migrate to the newest): PostgreSQL at `databaseUrl`, or `file` in `dataDir` on SQLite.
 */
export async function databaseMigratedTo(
  key: string,
  place: { databaseUrl: string | undefined; dataDir: string; file: string },
): Promise<Kysely<Database>> {
  const database =
    testEngine === 'postgres'
      ? new Kysely<Database>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: place.databaseUrl, max: 2 }),
          }),
        })
      : new Kysely<Database>({
          dialect: new SqliteDialect({
            database: new SQLite(path.join(place.dataDir, place.file)),
          }),
        });
  const migrated = await new Migrator({ db: database, provider: migrationProvider }).migrateTo(key);
  if (migrated.error !== undefined) {
    throw new Error(`Migrating to ${key} failed`, { cause: migrated.error });
  }
  return database;
}

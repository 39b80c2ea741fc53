import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { MIGRATIONS } from './migrations/index.ts';

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(Object.fromEntries(MIGRATIONS) as Record<string, Migration>),
};

/**
 * Brings the database to the newest schema; throws with the failing migration's name. Derived
 * data the migrations asked for is rebuilt afterwards, at start-up (derived-data.ts).
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

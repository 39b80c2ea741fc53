import { type Kysely, sql } from 'kysely';

/**
 * Asks the start-up step after the migrations (server/db/derived-data.ts) to rebuild derived data
 * with the code of the day, when `whenRowsIn` holds rows: the row `rebuild:<derivedData>` in
 * app_settings, its value the migration that asked. A migration never runs live app code.
 */
export async function requestRebuild(
  db: Kysely<unknown>,
  derivedData: string,
  requestedBy: string,
  whenRowsIn: string,
): Promise<void> {
  await sql`insert into app_settings (key, value)
    select ${`rebuild:${derivedData}`}, ${requestedBy} where exists (select 1 from ${sql.table(whenRowsIn)})
    on conflict (key) do nothing`.execute(db);
}

import type { Db } from '../../db/database.ts';
import { readModelDialectOf } from './repository.ts';

/**
 * Derived data a migration may ask to have rebuilt (migrations/helpers/0015-derived-data.ts), in
 * the order the start-up step rebuilds them: names are numbered once folded, and list records are
 * built last, from the repaired and folded rows.
 */
export const DERIVED_DATA = [
  'search-columns',
  'company-name-order',
  'person-name-order',
  'current-verifications',
  'list-records',
] as const;

export type DerivedData = (typeof DERIVED_DATA)[number];

/**
 * How each kind of derived data is rebuilt with the code of the day (`entityDerivedData`; tests
 * pass their own); each returns how many rows it changed if it counts them, and must be
 * idempotent: a start stopped halfway runs it again.
 */
export type DerivedDataRebuilders = Record<DerivedData, (db: Db) => Promise<number | undefined>>;

/** What the start-up log says of one rebuild. */
export interface DerivedDataNote {
  derivedData: DerivedData;
  /** The migration that asked for it. */
  requestedBy: string;
  message: string;
  detail: { changed?: number };
}

/** The app_settings row of a pending request; the prefix is frozen in the migrations' helper. */
const requestKey = (derivedData: DerivedData) => `rebuild:${derivedData}`;

/** Where the repair asked for by 0023 leaves how many legal entities it changed, for an operator. */
const CHANGED_COUNT_KEYS: Partial<Record<DerivedData, string>> = {
  'current-verifications': 'migration.0023_next_review_from_newest_verification',
};

const MESSAGES: Record<DerivedData, (changed: number) => string> = {
  'search-columns': (changed) => `Search columns computed again: ${String(changed)} rows changed.`,
  'company-name-order': () => 'Company names numbered in list order for search.',
  'person-name-order': () => "Natural persons' names numbered in list order for search.",
  'current-verifications': (changed) =>
    `Migration 0023 set the status and next review of ${String(changed)} legal entities to their newest verification's.`,
  'list-records': (changed) => `List records built for ${String(changed)} entities.`,
};

/**
 * The start-up step after the migrations: rebuilds each kind of derived data a migration asked
 * for, one transaction each, and removes the request in that transaction, so a start stopped
 * halfway does it again and two processes starting together do it once (the second finds the
 * request gone once it holds the lock). Returns what was rebuilt, for the log.
 */
export async function rebuildDerivedData(
  db: Db,
  rebuilders: DerivedDataRebuilders,
): Promise<DerivedDataNote[]> {
  const pending = await pendingDerivedData(db);
  const notes: DerivedDataNote[] = [];
  for (const derivedData of DERIVED_DATA) {
    if (!pending.includes(derivedData)) continue;
    const note = await db.transaction().execute(async (trx) => {
      const claim = trx
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', requestKey(derivedData));
      // SQLite's BEGIN IMMEDIATE already holds the write lock; PostgreSQL locks the one row.
      const request = await readModelDialectOf(trx).lockingRow(claim).executeTakeFirst();
      if (!request) return undefined;
      const changed = await rebuilders[derivedData](trx);
      await trx.deleteFrom('app_settings').where('key', '=', requestKey(derivedData)).execute();
      const countKey = CHANGED_COUNT_KEYS[derivedData];
      if (countKey !== undefined && changed !== undefined) {
        await trx
          .insertInto('app_settings')
          .values({ key: countKey, value: String(changed) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(changed) }))
          .execute();
      }
      return {
        derivedData,
        requestedBy: request.value,
        message: MESSAGES[derivedData](changed ?? 0),
        detail: changed === undefined ? {} : { changed },
      } satisfies DerivedDataNote;
    });
    if (note) notes.push(note);
  }
  return notes;
}

/** The requests not yet carried out (none once a server has started on this database). */
export async function pendingDerivedData(db: Db): Promise<DerivedData[]> {
  const rows = await db
    .selectFrom('app_settings')
    .select('key')
    .where(
      'key',
      'in',
      DERIVED_DATA.map((derivedData) => requestKey(derivedData)),
    )
    .execute();
  return DERIVED_DATA.filter((derivedData) =>
    rows.some((row) => row.key === requestKey(derivedData)),
  );
}

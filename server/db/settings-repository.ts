import type { Db } from './database.ts';

/** The only place with SQL for `app_settings`: small values every instance must share. */
export function settingsRepository(db: Db) {
  return {
    /** The stored value of `key`; the first caller's `value` when none was stored (any instance). */
    async getOrInsert(key: string, value: string): Promise<string> {
      await db
        .insertInto('app_settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

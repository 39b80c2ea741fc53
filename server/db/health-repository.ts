import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The only SQL of `/healthz`: a read that needs the database, and a write that needs its storage. */
export function healthRepository(db: Db) {
  return {
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
    /** One small committed write: whether the storage takes writes again after it was full. */
    async probeWrite(at: Date): Promise<void> {
      await db
        .insertInto('app_settings')
        .values({ key: 'health-probe', value: at.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: at.toISOString() }))
        .execute();
    },
  };
}

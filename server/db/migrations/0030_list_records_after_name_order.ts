import type { Kysely } from 'kysely';
import { requestRebuild } from './helpers/0015-derived-data.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0029 filled entities.name_order, and the update dropped every list record (0013's triggers):
  // the start-up step builds them again, or every list page would be assembled from the tables.
  await requestRebuild(db, 'list-records', '0030_list_records_after_name_order', 'entities');
}

import { type Kysely } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';
import { requestRebuild } from './helpers/0015-derived-data.ts';
import { replaceNameIndexWithListOrderCopy } from './helpers/0016-name-order.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') return;
  // Natural persons' names as 0016 did company names: read in list order, stopping at 500.
  await replaceNameIndexWithListOrderCopy(db, {
    table: 'natural_persons',
    oldIndex: 'natural_persons_name_fts',
    copy: 'natural_person_name_order',
    columns: ['first_name_folded', 'last_name_folded'],
  });
  await requestRebuild(db, 'person-name-order', '0017_person_name_order', 'natural_persons');
}

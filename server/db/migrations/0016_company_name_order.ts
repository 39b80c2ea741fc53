import { type Kysely } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';
import { requestRebuild } from './helpers/0015-derived-data.ts';
import { replaceNameIndexWithListOrderCopy } from './helpers/0016-name-order.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL's planner reads pg_trgm's GIN index for the LIKE itself (0006).
  if (engineOf(db) === 'postgres') return;
  // The trigram index moves to a narrow copy of the names numbered in list order, so a search
  // reads its matches oldest first and stops at the 500th, instead of looking up and sorting
  // every candidate (a cost that grew as the square root of the entities).
  await replaceNameIndexWithListOrderCopy(db, {
    table: 'legal_entities',
    oldIndex: 'legal_entities_company_name_fts',
    copy: 'legal_entity_name_order',
    columns: ['company_name_folded'],
  });
  // The copy starts empty: the names are numbered in list order after the migrations.
  await requestRebuild(db, 'company-name-order', '0016_company_name_order', 'legal_entities');
}

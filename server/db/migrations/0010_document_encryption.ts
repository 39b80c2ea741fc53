import { type Kysely, sql } from 'kysely';
import { bytesType } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Null means stored in the clear: a migration has no key, so the app seals those rows at
  // start-up (server/documents/document-keys.ts).
  await db.schema.alterTable('documents').addColumn('key_id', 'text').execute();
  await db.schema.alterTable('documents').addColumn('wrapped_key', bytesType(db)).execute();
  await db.schema.alterTable('documents').addColumn('nonce', bytesType(db)).execute();
  // Finds what is left in the clear without reading every row; empty once all are sealed.
  await db.schema
    .createIndex('documents_in_the_clear')
    .on('documents')
    .column('id')
    .where(sql.ref('key_id'), 'is', null)
    .execute();
}

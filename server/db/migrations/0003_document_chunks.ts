import { type Kysely, sql } from 'kysely';
import { engineOf, bytesType } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Bytes in fixed-size pieces, so a download reads one piece at a time instead of the whole file.
  await db.schema
    .createTable('document_chunks')
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', bytesType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('document_chunks_pk', ['document_id', 'seq'])
    .execute();
  // The chunk size is frozen here as it was when this migration was written.
  if (engineOf(db) === 'postgres') {
    await sql`insert into document_chunks (document_id, seq, bytes)
      select document_id, seq, substring(bytes from seq * 196608 + 1 for 196608)
      from document_contents, generate_series(0, greatest((length(bytes) - 1) / 196608, 0)) as seq`.execute(
      db,
    );
    await db.schema.dropTable('document_contents').execute();
    return;
  }
  await sql`insert into document_chunks (document_id, seq, bytes)
    with recursive pieces (document_id, seq, size) as (
      select document_id, 0, length(bytes) from document_contents
      union all
      select document_id, seq + 1, size from pieces where (seq + 1) * 196608 < size
    )
    -- substr() of an empty blob is null.
    select pieces.document_id, pieces.seq, coalesce(substr(document_contents.bytes, pieces.seq * 196608 + 1, 196608), x'')
    from pieces join document_contents using (document_id)`.execute(db);
  await db.schema.dropTable('document_contents').execute();
}

import type { Db } from '../db/database.ts';
import type { DocumentRow } from '../db/schema.ts';

export interface NewDocument {
  row: DocumentRow;
  bytes: Buffer;
}

/** The only place with SQL for supporting documents and their bytes. */
export function documentsRepository(db: Db) {
  return {
    /** Metadata only (never the bytes) of the documents of these entities, oldest first. */
    metadataOfEntities(entityIds: readonly string[]): Promise<DocumentRow[]> {
      if (entityIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('documents')
        .selectAll()
        .where('entity_id', 'in', entityIds)
        .orderBy('date_received')
        .orderBy('id')
        .execute();
    },

    findWithContent(id: string): Promise<(DocumentRow & { bytes: Buffer }) | undefined> {
      return db
        .selectFrom('documents')
        .innerJoin('document_contents', 'document_contents.document_id', 'documents.id')
        .selectAll('documents')
        .select('document_contents.bytes')
        .where('documents.id', '=', id)
        .executeTakeFirst();
    },

    /** Inserts metadata and bytes; the caller runs it inside its transaction. */
    async insertMany(documents: readonly NewDocument[]) {
      if (documents.length === 0) return;
      await db
        .insertInto('documents')
        .values(documents.map((document) => document.row))
        .execute();
      await db
        .insertInto('document_contents')
        .values(
          documents.map((document) => ({ document_id: document.row.id, bytes: document.bytes })),
        )
        .execute();
    },
  };
}

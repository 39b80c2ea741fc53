import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DocumentChunkTable, DocumentRow } from '../db/schema.ts';

/** Bytes per stored piece of a document: a multiple of 3, so each piece's base64 has no padding but the last. */
export const DOCUMENT_CHUNK_BYTES = 3 * 64 * 1024;

export interface NewDocument {
  /** A new document is undecided: the decision columns start null. */
  row: Omit<DocumentRow, 'decided_by' | 'decided_at' | 'decision_reason'>;
  bytes: Buffer;
}

/** The rows that store a document's bytes; views into `bytes`, not copies. */
export function chunkRowsOf(documentId: string, bytes: Buffer): DocumentChunkTable[] {
  const rows: DocumentChunkTable[] = [];
  let seq = 0;
  do {
    const offset = seq * DOCUMENT_CHUNK_BYTES;
    rows.push({
      document_id: documentId,
      seq,
      bytes: bytes.subarray(offset, offset + DOCUMENT_CHUNK_BYTES),
    });
    seq += 1;
  } while (seq * DOCUMENT_CHUNK_BYTES < bytes.length);
  return rows;
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

    /** A document's metadata with the number of its stored pieces and their total length (read without the bytes). */
    findStored(
      id: string,
    ): Promise<(DocumentRow & { chunkCount: number; storedBytes: number }) | undefined> {
      return db
        .selectFrom('documents')
        .selectAll('documents')
        .select([
          sql<number>`(select count(*) from document_chunks where document_id = documents.id)`.as(
            'chunkCount',
          ),
          // length() of a blob is read from the record header, without loading the blob.
          sql<number>`(select coalesce(sum(length(bytes)), 0) from document_chunks where document_id = documents.id)`.as(
            'storedBytes',
          ),
        ])
        .where('documents.id', '=', id)
        .executeTakeFirst();
    },

    /** One stored piece of a document's bytes, or undefined if there is no such piece. */
    async chunk(documentId: string, seq: number): Promise<Buffer | undefined> {
      const row = await db
        .selectFrom('document_chunks')
        .select('bytes')
        .where('document_id', '=', documentId)
        .where('seq', '=', seq)
        .executeTakeFirst();
      return row?.bytes;
    },

    /** Inserts metadata and bytes; the caller runs it inside its transaction. */
    async insertMany(documents: readonly NewDocument[]) {
      if (documents.length === 0) return;
      await db
        .insertInto('documents')
        .values(documents.map((document) => document.row))
        .execute();
      for (const document of documents) {
        // One statement per piece keeps each bound parameter small.
        for (const row of chunkRowsOf(document.row.id, document.bytes)) {
          await db.insertInto('document_chunks').values(row).execute();
        }
      }
    },
  };
}

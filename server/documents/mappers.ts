import type { DocumentDetail, DocumentMetadata } from '../../contract/entities.ts';
import type { DocumentRow } from '../db/schema.ts';

export function documentMetadataOf(row: DocumentRow): DocumentMetadata {
  return {
    documentId: row.id,
    fileName: row.file_name,
    type: row.type,
    description: row.description,
    dateReceived: row.date_received,
    documentApproved: row.approved === 1,
    mimeType: row.mime_type,
    fileSize: row.file_size,
    // Only once decided, so undecided documents keep the interface's shape exactly.
    ...(row.decided_by !== null && row.decided_at !== null
      ? {
          decision: {
            approved: row.approved === 1,
            by: row.decided_by,
            at: row.decided_at,
            reason: row.decision_reason,
          },
        }
      : {}),
  };
}

/** Every field of the document detail but the bytes, which are streamed after them. */
export function documentDetailFieldsOf(row: DocumentRow): Omit<DocumentDetail, 'file'> {
  return { ...documentMetadataOf(row), mimeType: row.mime_type, fileSize: row.file_size };
}

import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { type BinaryCopyRow, copyLiteral } from '../db/postgres-binary-copy.ts';
import type { DocumentChunkTable, DocumentRow } from '../db/schema.ts';
import type { StoredBytes } from './document-json.ts';
import {
  decryptPiece,
  encryptPiece,
  newDataKey,
  TAG_BYTES,
  unwrapDataKey,
  type DocumentKeys,
  type DocumentSeal,
} from './document-crypto.ts';

/** Bytes per stored piece of a document: a multiple of 3, so each piece's base64 has no padding but the last. */
export const DOCUMENT_CHUNK_BYTES = 3 * 64 * 1024;

/** Metadata rows per INSERT: well under SQLite's 32,766 bound parameters. */
const ROWS_PER_INSERT = 500;

export interface NewDocument {
  /** The metadata; the repository adds the seal, and a new document is undecided. */
  row: Omit<
    DocumentRow,
    keyof DocumentSeal | 'decided_by' | 'decided_at' | 'decision_reason' | 'client_request_id'
  > & { client_request_id?: string | null };
  bytes: Buffer;
}

/** A document as findStored reads it: metadata, seal, and its pieces' count and stored length. */
export type StoredDocument = DocumentRow & { chunkCount: number; storedBytes: number };

/** Its seal, or undefined for bytes stored in the clear before encryption came. */
function sealOf(row: DocumentRow): DocumentSeal | undefined {
  if (row.key_id === null || row.wrapped_key === null || row.nonce === null) return undefined;
  return { key_id: row.key_id, wrapped_key: row.wrapped_key, nonce: row.nonce };
}

/** Piece `index` of `pieces` encrypted under the data key; the last piece is marked as such. */
function encryptedChunk(
  dataKey: Buffer,
  seal: DocumentSeal,
  pieces: readonly DocumentChunkTable[],
  index: number,
): DocumentChunkTable {
  const piece = pieces[index];
  if (!piece) throw new RangeError(`No piece ${String(index)}`);
  const place = { seq: piece.seq, last: index === pieces.length - 1 };
  return { ...piece, bytes: encryptPiece(dataKey, seal.nonce, place, piece.bytes) };
}

/**
 * A new document's metadata with its seal, and its pieces encrypted under a fresh data key, for
 * bulk writers (the seed): no document bytes reach the database in the clear.
 */
export function sealedDocument(
  keys: DocumentKeys,
  document: NewDocument,
): { row: NewDocument['row'] & DocumentSeal; chunks: DocumentChunkTable[] } {
  const { dataKey, seal } = newDataKey(keys, document.row.id);
  const pieces = chunkRowsOf(document.row.id, document.bytes);
  return {
    row: { ...document.row, ...seal },
    chunks: pieces.map((_, index) => encryptedChunk(dataKey, seal, pieces, index)),
  };
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
  const repository = {
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
    findStored(id: string): Promise<StoredDocument | undefined> {
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
      if (engineOf(db) === 'postgres') {
        // As COPY's raw bytes: a bytea column would travel as hex text, twice its size.
        const { rows } = await sql<BinaryCopyRow>`copy (select bytes from document_chunks
          where document_id = ${copyLiteral(documentId)} and seq = ${copyLiteral(seq)}) to stdout (format binary)`.execute(
          db,
        );
        return rows[0]?.fields[0] ?? undefined;
      }
      const row = await db
        .selectFrom('document_chunks')
        .select('bytes')
        .where('document_id', '=', documentId)
        .where('seq', '=', seq)
        .executeTakeFirst();
      return row?.bytes;
    },

    /**
     * A document's bytes as they were uploaded, one piece at a time. The data key is unwrapped and
     * the first piece read and authenticated here, before any response is sent, so a wrong key or
     * an altered small document is an error, never garbage; each later piece is authenticated
     * before it is given out.
     */
    async plainBytesOf(document: StoredDocument, keys: DocumentKeys): Promise<StoredBytes> {
      const seal = sealOf(document);
      const chunk = (seq: number) => repository.chunk(document.id, seq);
      if (!seal) return { length: document.storedBytes, chunkCount: document.chunkCount, chunk };
      const dataKey = unwrapDataKey(keys, document.id, seal);
      const last = document.chunkCount - 1;
      const open = async (seq: number) => {
        const stored = await chunk(seq);
        return (
          stored &&
          decryptPiece(dataKey, seal.nonce, { seq, last: seq === last }, stored, document.id)
        );
      };
      const first = await open(0);
      return {
        length: document.storedBytes - TAG_BYTES * document.chunkCount,
        chunkCount: document.chunkCount,
        chunk: (seq) => (seq === 0 ? Promise.resolve(first) : open(seq)),
      };
    },

    /**
     * Inserts metadata and bytes, sealed under the current master key, one encrypted piece at a
     * time; the caller runs it inside its transaction.
     */
    async insertMany(documents: readonly NewDocument[], keys: DocumentKeys) {
      const sealed = documents.map((document) => ({
        document,
        ...newDataKey(keys, document.row.id),
      }));
      for (let start = 0; start < sealed.length; start += ROWS_PER_INSERT) {
        await db
          .insertInto('documents')
          .values(
            sealed
              .slice(start, start + ROWS_PER_INSERT)
              .map(({ document, seal }) => ({ ...document.row, ...seal })),
          )
          .execute();
      }
      for (const { document, dataKey, seal } of sealed) {
        const pieces = chunkRowsOf(document.row.id, document.bytes);
        // One statement per piece keeps each bound parameter small.
        for (let index = 0; index < pieces.length; index += 1) {
          await db
            .insertInto('document_chunks')
            .values(encryptedChunk(dataKey, seal, pieces, index))
            .execute();
        }
      }
    },

    /** The key id of one sealed document, if any: the start-up check of the master key. */
    async anyKeyId(): Promise<string | undefined> {
      const row = await db
        .selectFrom('documents')
        .select('key_id')
        .where('key_id', 'is not', null)
        .limit(1)
        .executeTakeFirst();
      return row?.key_id ?? undefined;
    },

    /** How many documents are stored in the clear (the partial index counts them). */
    async countInTheClear(): Promise<number> {
      const row = await db
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('key_id', 'is', null)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /** Up to `limit` ids of documents stored in the clear. */
    async idsInTheClear(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('documents')
        .select('id')
        .where('key_id', 'is', null)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /**
     * Encrypts a document stored in the clear, piece by piece in place; false when it is sealed
     * already (another instance got there first). Run inside a transaction.
     */
    async seal(documentId: string, keys: DocumentKeys): Promise<boolean> {
      const document = await repository.findStored(documentId);
      if (!document || sealOf(document)) return false;
      const { dataKey, seal } = newDataKey(keys, documentId);
      for (let seq = 0; seq < document.chunkCount; seq += 1) {
        const plain = await repository.chunk(documentId, seq);
        if (!plain) throw new Error(`Piece ${String(seq)} of document ${documentId} is missing.`);
        const place = { seq, last: seq === document.chunkCount - 1 };
        await db
          .updateTable('document_chunks')
          .set({ bytes: encryptPiece(dataKey, seal.nonce, place, plain) })
          .where('document_id', '=', documentId)
          .where('seq', '=', seq)
          .execute();
      }
      await db.updateTable('documents').set(seal).where('id', '=', documentId).execute();
      return true;
    },

    /** How many documents are sealed under each master key id. */
    async countByKeyId(): Promise<{ keyId: string; documents: number }[]> {
      const rows = await db
        .selectFrom('documents')
        .select(['key_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('key_id', 'is not', null)
        .groupBy('key_id')
        .orderBy('key_id')
        .execute();
      return rows.map((row) => ({ keyId: row.key_id ?? '', documents: row.n }));
    },

    /** Up to `limit` seals not under `keyId`, after the document id `after`, in id order. */
    async sealsNotUnder(
      keyId: string,
      after: string,
      limit: number,
    ): Promise<{ id: string; seal: DocumentSeal }[]> {
      const rows = await db
        .selectFrom('documents')
        .select(['id', 'key_id', 'wrapped_key', 'nonce'])
        .where('key_id', 'is not', null)
        .where('key_id', '<>', keyId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.flatMap((row) => {
        const seal = sealOf(row as DocumentRow);
        return seal ? [{ id: row.id, seal }] : [];
      });
    },

    /** Puts a document's data key, re-wrapped, in place of its old wrapping. */
    async replaceSeal(documentId: string, seal: DocumentSeal): Promise<void> {
      await db
        .updateTable('documents')
        .set({ key_id: seal.key_id, wrapped_key: seal.wrapped_key })
        .where('id', '=', documentId)
        .execute();
    },

    /**
     * SQLite: overwrite freed space with zeros while `work` replaces bytes (pieces in the clear, old
     * wrapped keys), then empty the write-ahead log, so neither stays readable in the files.
     * Returns whether the log could be emptied (a reader may hold it). PostgreSQL: just `work`.
     */
    async erasingReplacedBytes(work: () => Promise<void>): Promise<{ logEmptied: boolean }> {
      if (engineOf(db) !== 'sqlite') {
        await work();
        return { logEmptied: true };
      }
      const { rows: before } = await sql<{
        secure_delete: number;
      }>`pragma secure_delete`.execute(db);
      await sql`pragma secure_delete = on`.execute(db);
      try {
        await work();
      } finally {
        await sql`pragma secure_delete = ${sql.raw(String(before[0]?.secure_delete ?? 0))}`.execute(
          db,
        );
      }
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db);
      return { logEmptied: rows[0]?.busy === 0 };
    },
  };
  return repository;
}

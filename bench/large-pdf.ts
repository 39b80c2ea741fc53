import crypto from 'node:crypto';
import { openDatabase } from '../server/db/database.ts';
import { loadDocumentKeys } from '../server/documents/document-keys.ts';
import { documentsRepository } from '../server/documents/repository.ts';
import { loadConfig } from '../server/env.ts';

/** A valid one-page PDF 1.4 of about `size` bytes: an unreferenced stream of filler keeps the xref exact. */
export function paddedPdf(size: number): Buffer {
  const content = 'BT /F1 24 Tf 72 720 Td (KYC Desk benchmark document) Tj ET';
  const overhead = 700;
  const filler = Buffer.alloc(Math.max(0, size - overhead), 0x20);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    ),
    Buffer.from(`<< /Length ${String(content.length)} >>\nstream\n${content}\nendstream`),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${String(filler.length)} >>\nstream\n`),
      filler,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const object = Buffer.concat([
      Buffer.from(`${String(index + 1)} 0 obj\n`),
      body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(object);
    offset += object.length;
  });
  const xref = [
    'xref',
    `0 ${String(objects.length + 1)}`,
    '0000000000 65535 f ',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${String(objects.length + 1)} /Root 1 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/**
 * Bench only: writes a document straight into the database, past the create route's 10 MB cap.
 * Attaches it to the oldest legal entity; returns the ids and the file name.
 */
export async function insertLargeDocument(dataDir: string, bytes: Buffer, fileName: string) {
  const { db } = await openDatabase(dataDir);
  try {
    const owner = await db
      .selectFrom('entities')
      .select('id')
      .where('kind', '=', 'legal')
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const documentId = crypto.randomUUID();
    const row = {
      id: documentId,
      entity_id: owner.id,
      file_name: fileName,
      type: 'Other',
      description: 'Benchmark document padded to size',
      date_received: new Date().toISOString().slice(0, 19).replace('T', ' '),
      approved: 0,
      mime_type: 'application/pdf',
      file_size: bytes.length,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    };
    // The key file the bench's server (DATA_DIR, no DOCUMENT_KEY) reads when it starts.
    const keys = loadDocumentKeys(loadConfig({ DATA_DIR: dataDir }), {
      info: () => undefined,
      warn: () => undefined,
    });
    await db
      .transaction()
      .execute((trx) => documentsRepository(trx).insertMany([{ row, bytes }], keys));
    return { entityId: owner.id, documentId, fileName };
  } finally {
    await db.destroy();
  }
}

import crypto from 'node:crypto';
import { documentDetailResponseSchema } from '../../contract/entities.ts';
import { documentEnvelopeStream, type StoredBytes } from './document-json.ts';
import { chunkRowsOf, DOCUMENT_CHUNK_BYTES } from './repository.ts';

const detail = {
  documentId: crypto.randomUUID(),
  fileName: 'scan "1" é.pdf',
  type: 'Proof of Identity' as const,
  description: 'Line\nbreak, backslash \\ and \u2028',
  dateReceived: '2026-03-01 10:00:00',
  documentApproved: true,
  mimeType: 'application/pdf',
  fileSize: 0,
};

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Bytes stored in pieces of `pieceSize` (the last may be shorter). */
function storedAs(bytes: Buffer, pieceSize: number): StoredBytes {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset === 0 || offset < bytes.length; offset += pieceSize) {
    pieces.push(bytes.subarray(offset, offset + pieceSize));
  }
  return {
    length: bytes.length,
    chunkCount: pieces.length,
    chunk: (seq) => Promise.resolve(pieces[seq]),
  };
}

function envelopeOf(bytes: Buffer): string {
  return JSON.stringify({
    code: 200,
    status: 'success',
    message: '',
    data: { ...detail, fileSize: bytes.length, file: bytes.toString('base64') },
  });
}

const CHUNK = DOCUMENT_CHUNK_BYTES;

describe('documentEnvelopeStream', () => {
  it.each([0, 1, 2, 3, 4, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 2, 1_000_003])(
    'streams %i bytes stored as the repository stores them as exactly JSON.stringify of the envelope, with its length',
    async (size) => {
      const bytes = crypto.randomBytes(size);
      const pieces = chunkRowsOf('doc', bytes);
      const { stream, contentLength } = documentEnvelopeStream(
        { ...detail, fileSize: size },
        {
          length: size,
          chunkCount: pieces.length,
          chunk: (seq) => Promise.resolve(pieces[seq]?.bytes),
        },
      );
      const body = await collect(stream);
      const expected = envelopeOf(bytes);
      expect(body.toString('utf8')).toBe(expected);
      expect(contentLength).toBe(Buffer.byteLength(expected));
      expect(body.length).toBe(contentLength);
      const parsed = documentDetailResponseSchema.parse(JSON.parse(body.toString('utf8')));
      expect(Buffer.from(parsed.data.file, 'base64').equals(bytes)).toBe(true);
    },
  );

  it.each([1, 2, 4, 1000, 65_537])(
    'carries the odd bytes between pieces of %i bytes, so any piece size gives the same JSON',
    async (pieceSize) => {
      const bytes = crypto.randomBytes(200_003);
      const { stream, contentLength } = documentEnvelopeStream(
        { ...detail, fileSize: bytes.length },
        storedAs(bytes, pieceSize),
      );
      const body = await collect(stream);
      expect(body.toString('utf8')).toBe(envelopeOf(bytes));
      expect(body.length).toBe(contentLength);
    },
  );

  it('fails the stream when a piece is missing or the stored length does not add up', async () => {
    const bytes = crypto.randomBytes(10_000);
    const missing = { ...storedAs(bytes, 4_000), chunk: () => Promise.resolve(undefined) };
    await expect(collect(documentEnvelopeStream(detail, missing).stream)).rejects.toThrow(
      /has gone/,
    );
    const shorter = { ...storedAs(bytes, 4_000), length: 10_001 };
    await expect(collect(documentEnvelopeStream(detail, shorter).stream)).rejects.toThrow(
      /changed/,
    );
  });

  it('reads a piece only when the reader asks for more', async () => {
    const bytes = crypto.randomBytes(10 * CHUNK);
    const stored = storedAs(bytes, CHUNK);
    const asked: number[] = [];
    const { stream } = documentEnvelopeStream(detail, {
      ...stored,
      chunk: (seq) => {
        asked.push(seq);
        return stored.chunk(seq);
      },
    });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    // The readable buffers ahead to its high-water mark (16 KB), far less than ten pieces.
    expect(asked.length).toBeLessThanOrEqual(2);
    stream.destroy();
  });
});

import { Readable } from 'node:stream';
import type { DocumentDetail } from '../../contract/entities.ts';

const FILE_TAIL = '"file":""}}';

export interface StoredBytes {
  /** Total length of the bytes. */
  length: number;
  /** Number of pieces, read in order from 0. */
  chunkCount: number;
  /** Piece `seq`, or undefined if it has gone. */
  chunk(seq: number): Promise<Buffer | undefined>;
}

/**
 * The success envelope around a document, as a stream of exactly the bytes that
 * `JSON.stringify({code: 200, status: 'success', message: '', data: detail})` would give, with
 * `file` the base64 of the stored bytes. Pieces are read and encoded one at a time as the client
 * takes them, so a request never holds the whole file, its base64 or the JSON at once.
 */
export function documentEnvelopeStream(
  detail: Omit<DocumentDetail, 'file'>,
  stored: StoredBytes,
): { stream: Readable; contentLength: number } {
  // `file` last, so that the JSON ends with its (empty) string and the two closing braces.
  const skeleton = JSON.stringify({
    code: 200,
    status: 'success',
    message: '',
    data: { ...detail, file: '' },
  });
  if (!skeleton.endsWith(FILE_TAIL)) throw new Error('The document envelope lost its shape.');
  const prefix = Buffer.from(skeleton.slice(0, -'"}}'.length));
  const suffix = Buffer.from('"}}');
  const base64Length = 4 * Math.ceil(stored.length / 3);

  async function* parts(): AsyncGenerator<Buffer> {
    yield prefix;
    // Up to 2 bytes left over from a piece whose length is not a multiple of 3.
    let carry: Buffer = Buffer.alloc(0);
    let read = 0;
    for (let seq = 0; seq < stored.chunkCount; seq += 1) {
      const piece = await stored.chunk(seq);
      if (!piece) throw new Error(`Piece ${String(seq)} of the document has gone.`);
      read += piece.length;
      const pending = carry.length === 0 ? piece : Buffer.concat([carry, piece]);
      const whole =
        seq === stored.chunkCount - 1 ? pending.length : pending.length - (pending.length % 3);
      // Base64 needs no JSON escaping, so it goes into the string as it is.
      if (whole > 0) yield Buffer.from(pending.subarray(0, whole).toString('base64'), 'latin1');
      carry = pending.subarray(whole);
    }
    // Headers (with Content-Length) are already sent: a mismatch can only end the response early.
    if (read !== stored.length) throw new Error('The document changed while it was being sent.');
    yield suffix;
  }

  return {
    stream: Readable.from(parts(), { objectMode: false }),
    contentLength: prefix.length + base64Length + suffix.length,
  };
}

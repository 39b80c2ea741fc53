import { Readable } from 'node:stream';
import type { DocumentDetail } from '../../src/contract/entities.ts';

/** Input bytes per chunk: a multiple of 3, so every chunk's base64 has no padding but the last. */
const CHUNK_INPUT_BYTES = 3 * 64 * 1024;

const FILE_TAIL = '"file":""}}';

/**
 * The success envelope around a document, as a stream of exactly the bytes that
 * `JSON.stringify({code: 200, status: 'success', message: '', data: detail})` would give, with
 * `file` the base64 of `bytes`. The base64 is encoded chunk by chunk from the Buffer, so a request
 * never holds the whole base64 string or the whole JSON string at once.
 */
export function documentEnvelopeStream(
  detail: Omit<DocumentDetail, 'file'>,
  bytes: Buffer,
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
  const base64Length = 4 * Math.ceil(bytes.length / 3);

  function* parts(): Generator<Buffer> {
    yield prefix;
    for (let offset = 0; offset < bytes.length; offset += CHUNK_INPUT_BYTES) {
      // Base64 needs no JSON escaping, so it goes into the string as it is.
      yield Buffer.from(
        bytes.subarray(offset, offset + CHUNK_INPUT_BYTES).toString('base64'),
        'latin1',
      );
    }
    yield suffix;
  }

  return {
    stream: Readable.from(parts(), { objectMode: false }),
    contentLength: prefix.length + base64Length + suffix.length,
  };
}

import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Passes bytes on until more than `limit` have gone by, then fails its pipeline with `tooLarge()`. */
export function byteLimit(limit: number, tooLarge: () => Error): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limit) callback(tooLarge());
      else callback(null, chunk);
    },
  });
}

/**
 * `source` through the limit into `target`. On failure the source is left undestroyed and drained:
 * pipeline would destroy a client's request and detach its socket, and the answer (a 413) needs both
 * the socket and `request.ip`; the rest of the body is discarded, as Fastify's own parsers do.
 */
export async function pipeWithinLimit(
  source: Readable,
  limit: number,
  tooLarge: () => Error,
  target: Writable | ((chunks: AsyncIterable<Buffer>) => Promise<void>),
): Promise<void> {
  try {
    await pipeline(source.iterator({ destroyOnReturn: false }), byteLimit(limit, tooLarge), target);
  } catch (error) {
    source.resume();
    throw error;
  }
}

/** The whole of `source`, at most `limit` bytes (`tooLarge()` beyond). */
export async function readWithinLimit(
  source: Readable,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeWithinLimit(source, limit, tooLarge, async (limited) => {
    for await (const chunk of limited) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

import { Readable } from 'node:stream';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** A document with its bytes, answered by the server or relayed by the gateway. */
const DOCUMENT_PATH = /^\/api\/v2\/documents\/[^/?]+(?:\?|$)/;

function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * Brotli or gzip, as the client prefers, for API answers (JSON, CSV, the API reference) of at
 * least COMPRESSION_THRESHOLD_BYTES. Register before any route. Left as they are:
 * - the console's files: @fastify/static serves the build's .br/.gz copies (no work per request);
 * - a document (GET /api/v2/documents/{id}) and any streamed JSON (the gateway's relay of a large
 *   answer): a document's base64 is mostly compressed bytes already, and the 5 MB download must
 *   stay cheap;
 * - request bodies: never inflated, so the body limits count the bytes that arrive.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (!isApiUrl(route.url) && route.compress === undefined) route.compress = false;
  });
  // Runs before the plugin's route-level onSend (route hooks run last in their category).
  app.addHook('onSend', (request, reply, payload, done) => {
    const contentType = String(reply.getHeader('content-type') ?? '');
    const isDocument = request.method === 'GET' && DOCUMENT_PATH.test(request.url);
    const isStreamedJson =
      payload instanceof Readable && contentType.startsWith('application/json');
    if (isDocument || isStreamedJson) {
      // The plugin's documented per-request switch.
      request.headers['x-no-compression'] = 'sent-as-is';
    }
    done(null, payload);
  });
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
  });
}

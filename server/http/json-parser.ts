import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

const NOT_UTF8 = 'The request body is not valid UTF-8: send JSON encoded as UTF-8.';

/** A 400 for bytes that are not UTF-8, which decoding would silently turn into U+FFFD. */
export function requireUtf8(raw: Buffer): void {
  if (!isUtf8(raw)) throw new ApiError(400, NOT_UTF8);
}

/**
 * Replaces Fastify's JSON parser with the same parser over the raw bytes, after checking they
 * are UTF-8 (RFC 8259); Fastify's own decodes the body as text first, so invalid bytes are lost.
 */
export function installUtf8JsonParser(app: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    if (!isUtf8(raw)) {
      done(new ApiError(400, NOT_UTF8), undefined);
      return;
    }
    void parseJson(request, raw.toString('utf8'), done);
  });
}

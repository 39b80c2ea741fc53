import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

const NOT_UTF8 = 'The request body is not valid UTF-8: send JSON encoded as UTF-8.';

const HOLDS_NUL =
  'The request body holds a NUL character (\\u0000), which no text field may contain.';

/**
 * A 400 for a parsed body with U+0000 in any string or key: no field means it, and PostgreSQL
 * cannot store it in text (SQLite would), so both engines refuse it alike.
 */
export function refuseNul(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) throw new ApiError(400, HOLDS_NUL);
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
}

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
    void parseJson(request, raw.toString('utf8'), (error, value) => {
      if (error) {
        done(error, undefined);
        return;
      }
      try {
        refuseNul(value);
      } catch (refusal) {
        done(refusal as ApiError, undefined);
        return;
      }
      done(null, value);
    });
  });
}

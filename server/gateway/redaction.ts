import { Transform, type TransformCallback } from 'node:stream';

const MARK = '[redacted]';

/**
 * Keeps the operator's API key out of everything relayed to a client, should the identity service
 * echo it in a message or a body. The mark has the key's byte length, so a streamed answer's
 * Content-Length still holds.
 */
export interface Redactor {
  text(value: string): string;
  /** A parsed JSON value with the key replaced in every string and property name. */
  json(value: unknown): { value: unknown; changed: boolean };
  /**
   * Whether JSON text may spell the key: it holds the key's bytes, or an escape that could stand
   * for one of its characters. When not, `json` of the parsed text would change nothing.
   */
  mayBeIn(jsonText: Buffer): boolean;
  /** Replaces the key's bytes in a stream, also where it spans two chunks. */
  stream(): Transform;
}

export function createRedactor(secret: string): Redactor {
  const secretBytes = Buffer.from(secret, 'utf8');
  const mark = markOfLength(secretBytes.length);
  const markBytes = Buffer.from(mark, 'utf8');
  // JSON spells a character other than as itself only by escape: \u for any, the short escapes
  // for " \ / and control characters.
  const hasShortEscape = Array.from(secret).some(
    (character) => '"\\/'.includes(character) || character < ' ',
  );
  const escape = Buffer.from(hasShortEscape ? '\\' : '\\u');

  function text(value: string): string {
    return secret === '' ? value : value.split(secret).join(mark);
  }

  function json(value: unknown): { value: unknown; changed: boolean } {
    const found = { any: false };
    const walk = (node: unknown): unknown => {
      if (typeof node === 'string') {
        const redacted = text(node);
        if (redacted !== node) found.any = true;
        return redacted;
      }
      if (Array.isArray(node)) return node.map(walk);
      if (typeof node === 'object' && node !== null) {
        return Object.fromEntries(
          Object.entries(node).map(([key, inner]) => [walk(key), walk(inner)]),
        );
      }
      return node;
    };
    const redacted = walk(value);
    return found.any ? { value: redacted, changed: true } : { value, changed: false };
  }

  function stream(): Transform {
    // Up to one byte less than the key is held back: the start of a key the next chunk completes.
    const keep = Math.max(secretBytes.length - 1, 0);
    let carried = Buffer.alloc(0);
    return new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        const bytes = Buffer.concat([carried, chunk]);
        replaceInPlace(bytes);
        const cut = Math.max(bytes.length - keep, 0);
        carried = bytes.subarray(cut);
        callback(null, cut > 0 ? bytes.subarray(0, cut) : undefined);
      },
      flush(callback: TransformCallback) {
        callback(null, carried.length > 0 ? carried : undefined);
      },
    });
  }

  function replaceInPlace(bytes: Buffer) {
    if (secretBytes.length === 0) return;
    let at = bytes.indexOf(secretBytes);
    while (at !== -1) {
      markBytes.copy(bytes, at);
      at = bytes.indexOf(secretBytes, at + secretBytes.length);
    }
  }

  function mayBeIn(jsonText: Buffer): boolean {
    return secret !== '' && (jsonText.includes(secretBytes) || jsonText.includes(escape));
  }

  return { text, json, mayBeIn, stream };
}

/** `[redacted]` padded with `*` (or cut) to the key's length. */
function markOfLength(length: number): string {
  return MARK.length <= length ? MARK.padEnd(length, '*') : '*'.repeat(length);
}

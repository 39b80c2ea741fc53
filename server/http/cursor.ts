import { ApiError } from './errors.ts';

/** A page's last key as a cursor, opaque to clients: base64url of its parts as a JSON array. */
export function encodeCursor(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/**
 * The key in a cursor from encodeCursor, as `keyOf` reads its parts; a cursor that is not one, or
 * whose parts `keyOf` refuses (undefined), is a 400 naming `cursor`.
 */
export function decodeCursor<Key>(
  cursor: string,
  keyOf: (parts: unknown[]) => Key | undefined,
): Key {
  let key: Key | undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value)) key = keyOf(value);
  } catch {
    // Not base64url JSON: refused below like any other foreign cursor.
  }
  if (key !== undefined) return key;
  throw new ApiError(
    400,
    'Invalid parameter cursor: use the nextCursor of an earlier page, unchanged.',
    [{ field: 'cursor', message: 'Use the nextCursor of an earlier page, unchanged.' }],
  );
}

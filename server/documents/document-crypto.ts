import crypto from 'node:crypto';

/**
 * Documents at rest (docs/security.md): each document has its own random AES-256 data key; its
 * stored pieces are AES-256-GCM under that key, and the data key is stored wrapped (AES-256-GCM)
 * by the master key, whose id is stored beside it.
 */

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
/** The GCM tag that follows each stored piece's ciphertext. */
export const TAG_BYTES = 16;
const CIPHER = 'aes-256-gcm';

export interface MasterKey {
  /** Stored beside every data key it wraps, so a wrong key is named before anything is decrypted. */
  id: string;
  /** Where the key came from (`DOCUMENT_KEY`, the key file), for error messages; never the key. */
  source: string;
  bytes: Buffer;
}

export interface DocumentKeys {
  /** Wraps the data key of every new document; a rotation re-wraps under it. */
  current: MasterKey;
  /** The key before a rotation: unwraps data keys not yet re-wrapped, never wraps. */
  previous: MasterKey | undefined;
}

/** How a document is sealed: the columns beside its metadata. */
export interface DocumentSeal {
  key_id: string;
  /** Wrapping nonce, wrapped data key and tag, in that order. */
  wrapped_key: Buffer;
  /** Base nonce of the pieces; piece `seq` uses it with `seq` mixed into its last four bytes. */
  nonce: Buffer;
}

/** A wrong key, or stored bytes that fail authentication: the message says which, never the key. */
export class DocumentKeyError extends Error {
  override name = 'DocumentKeyError';
}

/** The first 8 bytes of a domain-separated SHA-256 of the key: names it without revealing it. */
export function keyIdOf(bytes: Buffer): string {
  return crypto
    .createHash('sha256')
    .update('kyc-desk document master key\0')
    .update(bytes)
    .digest('hex')
    .slice(0, 16);
}

export function masterKeyOf(bytes: Buffer, source: string): MasterKey {
  if (bytes.length !== KEY_BYTES) throw new Error(`${source} must be ${String(KEY_BYTES)} bytes.`);
  return { id: keyIdOf(bytes), source, bytes };
}

/** `current` and, when it is a different key, `previous`. */
export function documentKeysOf(current: MasterKey, previous?: MasterKey): DocumentKeys {
  return { current, previous: previous && previous.id !== current.id ? previous : undefined };
}

export function describeKeys(keys: DocumentKeys): string {
  const held = [keys.current, ...(keys.previous ? [keys.previous] : [])];
  return held.map((key) => `${key.id} (${key.source})`).join(' and ');
}

/** The master key with this id, or a clear error naming both sides. */
export function masterKeyWithId(keys: DocumentKeys, keyId: string, what: string): MasterKey {
  if (keys.current.id === keyId) return keys.current;
  if (keys.previous?.id === keyId) return keys.previous;
  throw new DocumentKeyError(
    `The document key does not match the key the documents were encrypted with: ${what} is under key id ${keyId}, and this server holds key id ${describeKeys(keys)}.`,
  );
}

/** Binds a wrapped data key to its document, so it cannot be moved to another row. */
const wrapAad = (documentId: string) => Buffer.from(`kyc-desk document data key\0${documentId}`);

function wrap(master: MasterKey, documentId: string, dataKey: Buffer): DocumentSeal['wrapped_key'] {
  const iv = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv(CIPHER, master.bytes, iv).setAAD(wrapAad(documentId));
  return Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
}

/** The data key of a sealed document; throws a DocumentKeyError for an unknown or altered key. */
export function unwrapDataKey(keys: DocumentKeys, documentId: string, seal: DocumentSeal): Buffer {
  const master = masterKeyWithId(keys, seal.key_id, `document ${documentId}`);
  const { wrapped_key: wrapped } = seal;
  try {
    const decipher = crypto
      .createDecipheriv(CIPHER, master.bytes, wrapped.subarray(0, NONCE_BYTES))
      .setAAD(wrapAad(documentId))
      .setAuthTag(wrapped.subarray(wrapped.length - TAG_BYTES));
    const dataKey = Buffer.concat([
      decipher.update(wrapped.subarray(NONCE_BYTES, wrapped.length - TAG_BYTES)),
      decipher.final(),
    ]);
    if (dataKey.length !== KEY_BYTES) throw new Error('wrong length');
    return dataKey;
  } catch {
    throw new DocumentKeyError(
      `The data key of document ${documentId} failed authentication under key id ${seal.key_id}: the stored key was altered or damaged.`,
    );
  }
}

/** A fresh data key for a new document, and its seal under the current master key. */
export function newDataKey(
  keys: DocumentKeys,
  documentId: string,
): { dataKey: Buffer; seal: DocumentSeal } {
  const dataKey = crypto.randomBytes(KEY_BYTES);
  return {
    dataKey,
    seal: {
      key_id: keys.current.id,
      wrapped_key: wrap(keys.current, documentId, dataKey),
      nonce: crypto.randomBytes(NONCE_BYTES),
    },
  };
}

/** The same data key wrapped under the current master key (the document's bytes are untouched). */
export function rewrapDataKey(
  keys: DocumentKeys,
  documentId: string,
  seal: DocumentSeal,
): DocumentSeal {
  const dataKey = unwrapDataKey(keys, documentId, seal);
  return {
    key_id: keys.current.id,
    wrapped_key: wrap(keys.current, documentId, dataKey),
    nonce: seal.nonce,
  };
}

function pieceNonce(nonce: Buffer, seq: number): Buffer {
  const result = Buffer.from(nonce);
  result.writeUInt32BE((result.readUInt32BE(NONCE_BYTES - 4) ^ seq) >>> 0, NONCE_BYTES - 4);
  return result;
}

/** The piece's place: a piece moved, dropped from the end or followed by another fails to open. */
function pieceAad(seq: number, last: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32BE(seq, 0);
  aad.writeUInt8(last ? 1 : 0, 4);
  return aad;
}

export interface PiecePlace {
  seq: number;
  /** Whether it is the document's last piece. */
  last: boolean;
}

/** A piece as stored: ciphertext followed by its tag. */
export function encryptPiece(
  dataKey: Buffer,
  nonce: Buffer,
  place: PiecePlace,
  plain: Buffer,
): Buffer {
  const cipher = crypto
    .createCipheriv(CIPHER, dataKey, pieceNonce(nonce, place.seq))
    .setAAD(pieceAad(place.seq, place.last));
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** A stored piece's bytes, authenticated; throws a DocumentKeyError rather than return others. */
export function decryptPiece(
  dataKey: Buffer,
  nonce: Buffer,
  place: PiecePlace,
  stored: Buffer,
  documentId: string,
): Buffer {
  try {
    if (stored.length < TAG_BYTES) throw new Error('too short');
    const decipher = crypto
      .createDecipheriv(CIPHER, dataKey, pieceNonce(nonce, place.seq))
      .setAAD(pieceAad(place.seq, place.last))
      .setAuthTag(stored.subarray(stored.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(stored.subarray(0, stored.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new DocumentKeyError(
      `Piece ${String(place.seq)} of document ${documentId} failed authentication: its stored bytes were altered or damaged.`,
    );
  }
}

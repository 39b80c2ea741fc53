/** Declared types that say nothing about the content, so the bytes decide. */
const GENERIC_MIME_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-download',
]);

const FALLBACK_MIME_TYPE = 'application/octet-stream';

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string) => Array.from(text, (character) => character.charCodeAt(0));

/** Recognises the formats the viewer can show from their magic numbers; null for anything else. */
export function sniffMimeType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** The declared type unless it is missing or generic; then what the bytes look like. */
export function resolveMimeType(declared: string | null | undefined, bytes: Uint8Array): string {
  const normalised = (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!GENERIC_MIME_TYPES.has(normalised)) return normalised;
  return sniffMimeType(bytes) ?? FALLBACK_MIME_TYPE;
}

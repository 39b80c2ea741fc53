const FALLBACK_NAME = 'document';
const MAX_LENGTH = 180;

/** Windows refuses these as names whatever the extension. */
const RESERVED_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** An extension has a letter: `Statement v1.2` is a name without one, not a `.2` file. */
const EXTENSION = /\.(?=[a-z0-9]*[a-z])[a-z0-9]{1,10}$/i;

const EXTENSION_BY_MIME_TYPE: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/tiff': '.tif',
  'image/heic': '.heic',
  'image/heif': '.heif',
};

/**
 * A file name safe to save on any system: path separators and reserved characters become `_`,
 * control characters go, no leading dots (hidden files) or trailing dots and spaces, the
 * extension is kept (or taken from the MIME type), and "document" when nothing is left.
 */
export function sanitizeFileName(name: string, mimeType?: string): string {
  const cleaned = name
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[/\\<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  let extension = EXTENSION.exec(cleaned)?.[0] ?? '';
  let base = cleaned
    .slice(0, cleaned.length - extension.length)
    .replace(/^[\s._]+/, '')
    .replace(/[\s.]+$/, '');
  if (base === '') base = FALLBACK_NAME;
  if (RESERVED_DEVICE_NAMES.test(base)) base = `_${base}`;
  if (extension === '' && mimeType) extension = EXTENSION_BY_MIME_TYPE[mimeType] ?? '';
  return `${base.slice(0, MAX_LENGTH - extension.length).trimEnd()}${extension}`;
}

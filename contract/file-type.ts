/** What a file's bytes show it to be; `document` when it is a type KYC Desk accepts. */
export interface FileType {
  mimeType: string;
  /** How a sentence names it: "a PDF", "a Windows executable". */
  description: string;
  document: boolean;
}

/** The types a supporting document may be, as a sentence lists them. */
export const ACCEPTED_DOCUMENT_TYPES_TEXT = 'a PDF, JPEG, PNG, TIFF, WebP or HEIC file';

/** Bytes of a file's start that identifyFileType reads (the text check looks this far). */
export const FILE_TYPE_HEAD_BYTES = 512;

const kind = (mimeType: string, description: string, document = false): FileType => ({
  mimeType,
  description,
  document,
});

export const FILE_TYPES = {
  pdf: kind('application/pdf', 'a PDF', true),
  jpeg: kind('image/jpeg', 'a JPEG image', true),
  png: kind('image/png', 'a PNG image', true),
  tiff: kind('image/tiff', 'a TIFF image', true),
  webp: kind('image/webp', 'a WebP image', true),
  heic: kind('image/heic', 'a HEIC image', true),
  heif: kind('image/heif', 'a HEIF image', true),
  gif: kind('image/gif', 'a GIF image'),
  bmp: kind('image/bmp', 'a BMP image'),
  avif: kind('image/avif', 'an AVIF image'),
  video: kind('video/mp4', 'a video'),
  windowsExecutable: kind('application/vnd.microsoft.portable-executable', 'a Windows executable'),
  elf: kind('application/x-elf', 'a Linux executable (ELF)'),
  machO: kind('application/x-mach-binary', 'a macOS executable'),
  zip: kind('application/zip', 'a ZIP archive'),
  officeOpenXml: kind(
    'application/vnd.openxmlformats-officedocument',
    'an Office file (DOCX, XLSX or PPTX)',
  ),
  openDocument: kind('application/vnd.oasis.opendocument', 'an OpenDocument file'),
  rar: kind('application/vnd.rar', 'a RAR archive'),
  sevenZip: kind('application/x-7z-compressed', 'a 7-Zip archive'),
  gzip: kind('application/gzip', 'a gzip archive'),
  oleOffice: kind('application/x-ole-storage', 'an old-format Office file or installer (OLE)'),
  rtf: kind('application/rtf', 'an RTF document'),
  script: kind('text/x-shellscript', 'a script'),
  html: kind('text/html', 'an HTML page'),
  svg: kind('image/svg+xml', 'an SVG image'),
  xml: kind('application/xml', 'an XML file'),
  text: kind('text/plain', 'a plain text file'),
  unknown: kind('application/octet-stream', 'a file of an unknown type'),
} as const satisfies Record<string, FileType>;

/** ISO-BMFF major brands of HEIC (HEVC-coded) and of other HEIF images and sequences. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2', 'miaf']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

function startsWith(bytes: Uint8Array, signature: readonly number[] | string, at = 0): boolean {
  const expected =
    typeof signature === 'string'
      ? Array.from(signature, (character) => character.charCodeAt(0))
      : signature;
  return (
    bytes.length >= at + expected.length &&
    expected.every((byte, index) => bytes[at + index] === byte)
  );
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function isoBmffType(bytes: Uint8Array): FileType | null {
  if (!startsWith(bytes, 'ftyp', 4) || bytes.length < 12) return null;
  const brand = latin1(bytes, 8, 12);
  if (HEIC_BRANDS.has(brand)) return FILE_TYPES.heic;
  if (HEIF_BRANDS.has(brand)) return FILE_TYPES.heif;
  if (AVIF_BRANDS.has(brand)) return FILE_TYPES.avif;
  return FILE_TYPES.video;
}

function isBmp(bytes: Uint8Array): boolean {
  // "BM" alone starts ordinary text too: the DIB header's size must be one of the known ones.
  return startsWith(bytes, 'BM') && [12, 40, 52, 56, 108, 124].includes(bytes[14] ?? -1);
}

/** Office formats are ZIP archives: the first entry's name tells them apart from a plain one. */
function zipType(bytes: Uint8Array): FileType {
  const nameLength = (bytes[26] ?? 0) + (bytes[27] ?? 0) * 256;
  const firstEntry = latin1(bytes, 30, 30 + nameLength);
  if (firstEntry === '[Content_Types].xml' || /^(word|xl|ppt|_rels|docProps)\//.test(firstEntry))
    return FILE_TYPES.officeOpenXml;
  if (
    firstEntry === 'mimetype' &&
    latin1(bytes, 30 + nameLength, 30 + nameLength + 80).includes('opendocument')
  )
    return FILE_TYPES.openDocument;
  return FILE_TYPES.zip;
}

/** Markup and text, told apart by their first non-blank characters (a UTF-8 BOM skipped). */
function textType(bytes: Uint8Array): FileType | null {
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  const printable = body.every(
    (byte) => byte === 0x09 || byte === 0x0a || byte === 0x0d || byte >= 0x20,
  );
  if (!printable || body.length === 0 || body.includes(0x7f)) return null;
  const start = latin1(body, 0, Math.min(body.length, 256)).trimStart().toLowerCase();
  if (start.startsWith('#!')) return FILE_TYPES.script;
  if (start.startsWith('{\\rtf')) return FILE_TYPES.rtf;
  if (start.includes('<svg')) return FILE_TYPES.svg;
  if (/^<(!doctype html|html|head|body|script|iframe|!--)/.test(start)) return FILE_TYPES.html;
  if (start.startsWith('<?xml')) return FILE_TYPES.xml;
  return FILE_TYPES.text;
}

/**
 * What a file is, from its first bytes alone (the name and any declared type say nothing):
 * the one check the console's form, the server's create route and the viewer share.
 */
export function identifyFileType(file: Uint8Array): FileType {
  const bytes = file.subarray(0, FILE_TYPE_HEAD_BYTES);
  if (startsWith(bytes, '%PDF-')) return FILE_TYPES.pdf;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return FILE_TYPES.jpeg;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FILE_TYPES.png;
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return FILE_TYPES.tiff;
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return FILE_TYPES.webp;
  const isoBmff = isoBmffType(bytes);
  if (isoBmff) return isoBmff;
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return FILE_TYPES.gif;
  if (isBmp(bytes)) return FILE_TYPES.bmp;
  if (startsWith(bytes, 'MZ')) return FILE_TYPES.windowsExecutable;
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return FILE_TYPES.elf;
  const machOMagics = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xca, 0xfe, 0xba, 0xbe],
  ];
  if (machOMagics.some((magic) => startsWith(bytes, magic))) return FILE_TYPES.machO;
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return zipType(bytes);
  if (startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return FILE_TYPES.zip;
  if (startsWith(bytes, 'Rar!\x1a\x07')) return FILE_TYPES.rar;
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return FILE_TYPES.sevenZip;
  if (startsWith(bytes, [0x1f, 0x8b])) return FILE_TYPES.gzip;
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return FILE_TYPES.oleOffice;
  return textType(bytes) ?? FILE_TYPES.unknown;
}

/** The known type with this MIME type (a viewer names what it cannot show), else unknown. */
export function fileTypeOfMimeType(mimeType: string): FileType {
  return Object.values(FILE_TYPES).find((type) => type.mimeType === mimeType) ?? FILE_TYPES.unknown;
}

/** The first `count` bytes of standard base64 (valid or not: invalid characters end it). */
export function base64Head(base64: string, count = FILE_TYPE_HEAD_BYTES): Uint8Array {
  const quads = base64.slice(0, Math.ceil(count / 3) * 4).replace(/=+$/, '');
  try {
    const binary = atob(quads.slice(0, quads.length - (quads.length % 4 === 1 ? 1 : 0)));
    return Uint8Array.from(binary.slice(0, count), (character) => character.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

/** Why a supporting document is refused, or null when its bytes are one of the accepted types. */
export function documentRefusalOf(bytes: Uint8Array): string | null {
  const type = identifyFileType(bytes);
  if (type.document) return null;
  return type === FILE_TYPES.unknown
    ? `This file's type is not recognised, so it is not a document: upload ${ACCEPTED_DOCUMENT_TYPES_TEXT}.`
    : `This file is ${type.description}, not a document: upload ${ACCEPTED_DOCUMENT_TYPES_TEXT}.`;
}

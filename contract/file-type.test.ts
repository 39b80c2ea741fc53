import { documentInputSchema } from './entities.ts';
import { base64Head, documentRefusalOf, identifyFileType } from './file-type.ts';

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? Array.from(part, (character) => character.charCodeAt(0)) : part,
    ),
  );

/** An ISO-BMFF file's start: box size, `ftyp`, major brand, minor version, compatible brands. */
const ftyp = (brand: string) => bytesOf([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0], 'mif1heic');

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const DOCUMENTS: [string, Uint8Array, string][] = [
  ['PDF', bytesOf('%PDF-1.7\n'), 'application/pdf'],
  ['JPEG', bytesOf([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
  ['PNG', bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
  ['TIFF little-endian', bytesOf([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), 'image/tiff'],
  ['TIFF big-endian', bytesOf([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), 'image/tiff'],
  ['WebP', bytesOf('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
  ...['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].map((brand): [string, Uint8Array, string] => [
    `HEIC (${brand})`,
    ftyp(brand),
    'image/heic',
  ]),
  ...['mif1', 'msf1'].map((brand): [string, Uint8Array, string] => [
    `HEIF (${brand})`,
    ftyp(brand),
    'image/heif',
  ]),
];

test.each(DOCUMENTS)('%s is a document', (_name, bytes, mimeType) => {
  expect(identifyFileType(bytes)).toMatchObject({ mimeType, document: true });
  expect(documentRefusalOf(bytes)).toBeNull();
});

/** A ZIP's first local file header naming its first entry. */
const zipWithFirstEntry = (name: string) =>
  bytesOf([0x50, 0x4b, 0x03, 0x04], Array(22).fill(0) as number[], [name.length, 0, 0, 0], name);

test.each([
  ['a Windows executable', bytesOf('MZ', [0x90, 0], 'This program cannot be run in DOS mode')],
  ['a Linux executable (ELF)', bytesOf([0x7f], 'ELF', [2, 1, 1, 0])],
  ['a macOS executable', bytesOf([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])],
  ['a ZIP archive', zipWithFirstEntry('payload.bin')],
  ['an Office file (DOCX, XLSX or PPTX)', zipWithFirstEntry('[Content_Types].xml')],
  ['a gzip archive', bytesOf([0x1f, 0x8b, 8, 0])],
  ['a GIF image', bytesOf('GIF89a', [1, 0, 1, 0])],
  ['an AVIF image', ftyp('avif')],
  ['a video', ftyp('isom')],
  ['a plain text file', bytesOf('Hello, this is a note.\n')],
  ['an HTML page', bytesOf('\n  <!DOCTYPE html><html><script>alert(1)</script>')],
  ['an SVG image', bytesOf('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ['a script', bytesOf('#!/bin/sh\nrm -rf /\n')],
  ['a RIFF that is not WebP', bytesOf('RIFF', [0, 0, 0, 0], 'WAVEfmt ', [0, 0, 0, 0])],
])('%s is refused, named as what it is', (description, bytes) => {
  const type = identifyFileType(bytes);
  expect(type.document).toBe(false);
  if (description !== 'a RIFF that is not WebP') expect(type.description).toBe(description);
  expect(documentRefusalOf(bytes)).toMatch(
    /not a document: upload a PDF, JPEG, PNG, TIFF, WebP or HEIC file\.$/,
  );
});

test('the refusal names the executable', () => {
  expect(documentRefusalOf(bytesOf('MZ', [0x90, 0, 3, 0]))).toBe(
    'This file is a Windows executable, not a document: upload a PDF, JPEG, PNG, TIFF, WebP or HEIC file.',
  );
});

test('binary bytes of no known kind are refused as unrecognised', () => {
  expect(documentRefusalOf(bytesOf([0, 1, 2, 3, 250, 251, 0, 0]))).toMatch(
    /^This file's type is not recognised/,
  );
});

test('base64Head decodes only the start, whatever the padding or a truncated tail', () => {
  const bytes = Uint8Array.from({ length: 2000 }, (_value, index) => index % 256);
  expect(Array.from(base64Head(base64(bytes), 10))).toEqual(Array.from(bytes.subarray(0, 10)));
  expect(Array.from(base64Head(base64(bytesOf('%PDF'))))).toEqual(Array.from(bytesOf('%PDF')));
  expect(base64Head('%%%%')).toHaveLength(0);
});

describe('documentInputSchema.file', () => {
  const input = (fileName: string, bytes: Uint8Array) => ({
    fileName,
    type: 'Other' as const,
    file: base64(bytes),
  });
  const executable = bytesOf('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0]);

  test.each(['setup.exe', 'certificate.pdf'])('refuses executable bytes named %s', (fileName) => {
    const result = documentInputSchema.safeParse(input(fileName, executable));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['file'],
        message: expect.stringContaining('This file is a Windows executable') as unknown,
      }),
    ]);
  });

  test('accepts a PDF whatever it is named, and ignores a declared type that disagrees', () => {
    const pdf = { ...input('scan.bin', bytesOf('%PDF-1.4\n%âãÏÓ\n')), mimeType: 'text/plain' };
    expect(documentInputSchema.safeParse(pdf).success).toBe(true);
  });
});

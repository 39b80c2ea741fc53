import { resolveMimeType, sniffMimeType } from './sniff-mime-type.ts';

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? Array.from(part, (character) => character.charCodeAt(0)) : part,
    ),
  );

test.each([
  ['PDF', bytesOf('%PDF-1.7\n'), 'application/pdf'],
  ['PNG', bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
  ['JPEG', bytesOf([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
  ['GIF87a', bytesOf('GIF87a', [1, 0]), 'image/gif'],
  ['GIF89a', bytesOf('GIF89a', [1, 0]), 'image/gif'],
  ['WebP', bytesOf('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
])('recognises %s', (_name, bytes, expected) => {
  expect(sniffMimeType(bytes)).toBe(expected);
});

test.each([
  ['empty', bytesOf()],
  ['plain text', bytesOf('hello world')],
  ['a RIFF that is not WebP', bytesOf('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
  ['a truncated PNG signature', bytesOf([0x89, 0x50, 0x4e])],
])('returns null for %s', (_name, bytes) => {
  expect(sniffMimeType(bytes)).toBeNull();
});

test('keeps a specific declared type, normalised', () => {
  expect(resolveMimeType('Image/PNG; charset=binary', bytesOf('%PDF-'))).toBe('image/png');
});

test.each([null, undefined, '', 'application/octet-stream', 'binary/octet-stream'])(
  'sniffs when the declared type is %j',
  (declared) => {
    expect(resolveMimeType(declared, bytesOf('%PDF-1.4'))).toBe('application/pdf');
  },
);

test('falls back to application/octet-stream when nothing is known', () => {
  expect(resolveMimeType('', bytesOf('plain'))).toBe('application/octet-stream');
});

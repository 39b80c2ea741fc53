import { sanitizeFileName } from './safe-file-name.ts';

test.each([
  ['proof-of-address.pdf', 'proof-of-address.pdf'],
  ['Bank statement March 2026.pdf', 'Bank statement March 2026.pdf'],
  ['../../etc/passwd', 'etc_passwd'],
  ['C:\\Users\\ana\\scan.png', 'C__Users_ana_scan.png'],
  ['a/b\\c.pdf', 'a_b_c.pdf'],
  ['in<voice>:"1"|?*.pdf', 'in_voice___1____.pdf'],
  ['evil\u0000\u0007\nname\u202e.pdf', 'evilname.pdf'],
  ['  spaced   out  .pdf  ', 'spaced out.pdf'],
  ['.hidden.pdf', 'hidden.pdf'],
  ['trailing dots...', 'trailing dots'],
  ['CON.txt', '_CON.txt'],
  ['lpt1', '_lpt1'],
  ['.pdf', 'document.pdf'],
  ['', 'document'],
  ['....', 'document'],
  ['\u0000\u0001', 'document'],
])('%j becomes %j', (input, expected) => {
  expect(sanitizeFileName(input)).toBe(expected);
});

test('adds the extension of a known MIME type when the name has none', () => {
  expect(sanitizeFileName('scan', 'image/png')).toBe('scan.png');
  expect(sanitizeFileName('', 'application/pdf')).toBe('document.pdf');
  expect(sanitizeFileName('report.pdf', 'image/png')).toBe('report.pdf');
  expect(sanitizeFileName('notes', 'text/plain')).toBe('notes');
});

test('a name like the real service’s gets the extension of the sniffed type', () => {
  expect(sanitizeFileName('Supporting document example 3', 'application/pdf')).toBe(
    'Supporting document example 3.pdf',
  );
  // Digits after a dot are part of the name, not an extension.
  expect(sanitizeFileName('Statement v1.2', 'application/pdf')).toBe('Statement v1.2.pdf');
  expect(sanitizeFileName('archive.7z', 'application/pdf')).toBe('archive.7z');
});

test('shortens very long names but keeps the extension', () => {
  const result = sanitizeFileName(`${'a'.repeat(500)}.pdf`);
  expect(result).toHaveLength(180);
  expect(result.endsWith('.pdf')).toBe(true);
});

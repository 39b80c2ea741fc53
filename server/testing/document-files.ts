import crypto from 'node:crypto';
import { buildPdf } from '../seed/pdf.ts';
import { Raster } from '../seed/png.ts';

/** A real one-page PDF whose title is `title`: uploads must be documents (docs/security.md). */
export function testPdf(title = 'Test document'): Buffer {
  return buildPdf({ title, lines: [title], footer: 'KYC Desk test', accent: [0.2, 0.3, 0.5] });
}

/** A real 4×4 PNG. */
export function testPng(): Buffer {
  return new Raster(4, 4, [200, 210, 220]).toPng();
}

/** `size` random bytes behind a PDF header: for tests of size and encryption, where content is noise. */
export function randomPdfBytes(size: number): Buffer {
  const bytes = crypto.randomBytes(size);
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  return bytes;
}

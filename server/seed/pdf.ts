export interface PdfPage {
  title: string;
  /** Body lines under the title; an empty string leaves a blank line. */
  lines: string[];
  footer: string;
  /** Colour of the letterhead band, each channel 0..1. */
  accent: readonly [number, number, number];
}

/** Text as WinAnsi (Latin-1) bytes inside a PDF string literal; other characters become '?'. */
function pdfString(text: string): string {
  const latin1 = Array.from(text, (char) => (char.charCodeAt(0) <= 0xff ? char : '?')).join('');
  return `(${latin1.replace(/[\\()]/g, (special) => `\\${special}`)})`;
}

function textAt(font: string, size: number, x: number, y: number, text: string): string {
  return `BT /${font} ${size} Tf ${x} ${y} Td ${pdfString(text)} Tj ET`;
}

/** A one-page A4 PDF 1.4 in Helvetica, with a cross-reference table whose offsets are exact. */
export function buildPdf(page: PdfPage): Buffer {
  const [r, g, b] = page.accent.map((channel) => channel.toFixed(3));
  const content = [
    `${r ?? 0} ${g ?? 0} ${b ?? 0} rg 0 772 595 70 re f`,
    '1 1 1 rg',
    textAt('F2', 20, 56, 798, page.title),
    '0.15 0.15 0.15 rg',
    ...page.lines.map((line, index) => textAt('F1', 11, 56, 730 - index * 18, line)),
    '0.6 0.6 0.6 RG 0.5 w 56 60 m 539 60 l S',
    '0.45 0.45 0.45 rg',
    textAt('F1', 8, 56, 46, page.footer),
  ].join('\n');
  const contentBytes = Buffer.from(content, 'latin1');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${contentBytes.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  ];

  // The binary comment on line two tells transfer tools the file is not plain text.
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
  ].join('\n');
  chunks.push(Buffer.from(`${xref}\n`, 'latin1'));
  return Buffer.concat(chunks);
}

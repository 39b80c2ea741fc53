/** A received message, reduced to what tests and tools check: headers and the two text parts. */
export interface ReadMessage {
  /** Lower-case header names; unfolded values with RFC 2047 encoded words decoded. */
  headers: Map<string, string>;
  text: string | undefined;
  html: string | undefined;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const separator = raw.indexOf('\n\n');
  const head = separator === -1 ? raw : raw.slice(0, separator);
  const body = separator === -1 ? '' : raw.slice(separator + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeEncodedWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
    (_match, _charset: string, encoding: string, encoded: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : decodeQuotedPrintable(encoded.replace(/_/g, ' ')).toString('utf8'),
  );
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body, 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8');
  return part.body;
}

function collect(part: Part, into: ReadMessage): void {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (mediaType?.startsWith('multipart/') && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collect(splitPart(section.replace(/^\n/, '')), into);
    }
    return;
  }
  if (mediaType === 'text/plain') into.text ??= decodeBody(part);
  if (mediaType === 'text/html') into.html ??= decodeBody(part);
}

/** Reads an RFC 5322 message as written by nodemailer (multipart/alternative, QP or base64). */
export function readMime(raw: string | Buffer): ReadMessage {
  const normalized = raw.toString().replace(/\r\n/g, '\n');
  const top = splitPart(normalized);
  const message: ReadMessage = { headers: top.headers, text: undefined, html: undefined };
  collect(top, message);
  return message;
}

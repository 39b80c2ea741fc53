import crypto from 'node:crypto';
import { documentDetailResponseSchema } from '../../src/contract/entities.ts';
import { documentEnvelopeStream } from './document-json.ts';

const detail = {
  documentId: crypto.randomUUID(),
  fileName: 'scan "1" é.pdf',
  type: 'Proof of Identity' as const,
  description: 'Line\nbreak, backslash \\ and \u2028',
  dateReceived: '2026-03-01 10:00:00',
  documentApproved: true,
  mimeType: 'application/pdf',
  fileSize: 0,
};

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const CHUNK = 3 * 64 * 1024;

describe('documentEnvelopeStream', () => {
  it.each([0, 1, 2, 3, 4, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 2, 1_000_003])(
    'streams %i bytes as exactly JSON.stringify of the envelope, with its length',
    async (size) => {
      const bytes = crypto.randomBytes(size);
      const { stream, contentLength } = documentEnvelopeStream(
        { ...detail, fileSize: size },
        bytes,
      );
      const body = await collect(stream);
      const expected = JSON.stringify({
        code: 200,
        status: 'success',
        message: '',
        data: { ...detail, fileSize: size, file: bytes.toString('base64') },
      });
      expect(body.toString('utf8')).toBe(expected);
      expect(contentLength).toBe(Buffer.byteLength(expected));
      expect(body.length).toBe(contentLength);
      const parsed = documentDetailResponseSchema.parse(JSON.parse(body.toString('utf8')));
      expect(Buffer.from(parsed.data.file, 'base64').equals(bytes)).toBe(true);
    },
  );
});

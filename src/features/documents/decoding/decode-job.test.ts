import { runDecodeJob } from './decode-job.ts';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d];

test('decodes the bytes and sniffs the type when none was declared', () => {
  const base64 = Buffer.from(PNG_HEADER).toString('base64');
  const response = runDecodeJob({ id: 7, base64, mimeType: 'application/octet-stream' });
  expect(response).toMatchObject({ id: 7, ok: true, mimeType: 'image/png' });
  if (!response.ok) throw new Error('expected success');
  expect(Array.from(new Uint8Array(response.buffer))).toEqual(PNG_HEADER);
});

test('keeps the declared type', () => {
  const base64 = Buffer.from('plain text').toString('base64');
  const response = runDecodeJob({ id: 1, base64, mimeType: 'text/plain' });
  expect(response).toMatchObject({ ok: true, mimeType: 'text/plain' });
});

test('answers with a message instead of throwing on bad base64', () => {
  expect(runDecodeJob({ id: 3, base64: '%%%', mimeType: null })).toEqual({
    id: 3,
    ok: false,
    message: 'The document could not be decoded: its file is not valid base64.',
  });
});

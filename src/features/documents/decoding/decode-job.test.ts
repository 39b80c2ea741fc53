import { runDecodeJob } from './decode-job.ts';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d];

test('decodes the bytes and takes the type from them', () => {
  const base64 = Buffer.from(PNG_HEADER).toString('base64');
  const response = runDecodeJob({ id: 7, base64 });
  expect(response).toMatchObject({ id: 7, ok: true, mimeType: 'image/png' });
  if (!response.ok) throw new Error('expected success');
  expect(Array.from(new Uint8Array(response.buffer))).toEqual(PNG_HEADER);
});

test('names an executable as one, whatever the file was called', () => {
  const base64 = Buffer.from('MZ\x90\x00 This program cannot be run in DOS mode').toString(
    'base64',
  );
  const response = runDecodeJob({ id: 1, base64 });
  expect(response).toMatchObject({
    ok: true,
    mimeType: 'application/vnd.microsoft.portable-executable',
  });
});

test('answers with a message instead of throwing on bad base64', () => {
  expect(runDecodeJob({ id: 3, base64: '%%%' })).toEqual({
    id: 3,
    ok: false,
    message: 'The document could not be decoded: its file is not valid base64.',
  });
});

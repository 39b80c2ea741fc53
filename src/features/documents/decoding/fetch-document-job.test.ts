import { documentDetailSchema } from '../../../../contract/entities.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { buildDocument } from '../../../../contract/testing/factories.ts';
import { server } from '../../../testing/msw-server.ts';
import { documentUrl } from './document-fetcher.ts';
import { runFetchDocumentJob } from './fetch-document-job.ts';

const PDF = `%PDF-1.7 ${'x'.repeat(300_000)}`;

function detailOf(content: string, overrides: { mimeType?: string } = {}) {
  const bytes = Buffer.from(content);
  return documentDetailSchema.parse({
    ...buildDocument(),
    mimeType: overrides.mimeType ?? 'application/pdf',
    fileSize: bytes.byteLength,
    file: bytes.toString('base64'),
  });
}

test('fetches with the Bearer token, reports progress and answers bytes plus metadata without the base64', async () => {
  const detail = detailOf(PDF, { mimeType: 'application/octet-stream' });
  let seenAuthorization: string | null = null;
  server.use(
    apiHandler('GET /api/v2/documents/:id', ({ request, params }) => {
      seenAuthorization = request.headers.get('Authorization');
      expect(params.id).toBe(detail.documentId);
      return envelope(detail);
    }),
  );
  const progress: number[] = [];
  const result = await runFetchDocumentJob(
    { id: 4, url: documentUrl(detail.documentId, location.href), token: 'tok' },
    (loaded) => progress.push(loaded),
  );
  if (result.kind !== 'done') throw new Error(`expected done, got ${result.kind}`);
  expect(seenAuthorization).toBe('Bearer tok');
  expect(result.id).toBe(4);
  expect(result.mimeType).toBe('application/pdf');
  expect(await result.blob.text()).toBe(PDF);
  expect(result.blob.type).toBe('application/pdf');
  expect(result.detail).toEqual(omitFile(detail));
  expect('file' in result.detail).toBe(false);
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.at(-1)).toBe(JSON.stringify(envelope(detail)).length);
});

function omitFile<T extends { file: string }>(value: T): Omit<T, 'file'> {
  const { file: _file, ...rest } = value;
  return rest;
}

test('reports a 401 to the main thread instead of failing, so it can run the re-sign-in', async () => {
  server.use(apiHandler('GET /api/v2/documents/:id', () => apiError(401, 'Token expired.')));
  const result = await runFetchDocumentJob(
    { id: 9, url: documentUrl('doc-1', location.href), token: 'stale' },
    () => undefined,
  );
  expect(result).toEqual({ id: 9, kind: 'unauthorized' });
});

test('answers a failure with its status and body, for the main thread to read', async () => {
  server.use(apiHandler('GET /api/v2/documents/:id', () => apiError(404, 'No such document.')));
  const result = await runFetchDocumentJob(
    { id: 2, url: documentUrl('missing', location.href), token: 'tok' },
    () => undefined,
  );
  expect(result).toMatchObject({
    id: 2,
    kind: 'refused',
    status: 404,
    body: { message: 'No such document.' },
  });
});

test('rejects a body without a file, and a file that is not base64', async () => {
  const detail = detailOf('hello');
  server.use(
    apiHandler('GET /api/v2/documents/:id', ({ params }) =>
      params.id === 'broken'
        ? envelope({ ...detail, file: 42 as unknown as string })
        : envelope({ ...detail, file: '%%%' }),
    ),
  );
  const broken = await runFetchDocumentJob(
    { id: 1, url: documentUrl('broken', location.href), token: null },
    () => undefined,
  );
  expect(broken).toEqual({
    id: 1,
    kind: 'failed',
    status: 0,
    message: 'The server answered in a form this console does not understand.',
  });
  const notBase64 = await runFetchDocumentJob(
    { id: 1, url: documentUrl('bad', location.href), token: null },
    () => undefined,
  );
  expect(notBase64).toEqual({
    id: 1,
    kind: 'failed',
    status: 0,
    message: 'The document could not be decoded: its file is not valid base64.',
  });
});

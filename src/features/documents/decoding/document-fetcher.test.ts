import { configureAuth } from '../../../lib/api-client.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { buildDocument } from '../../../../contract/testing/factories.ts';
import { server } from '../../../testing/msw-server.ts';
import { createDocumentFetcher } from './document-fetcher.ts';
import { runFetchDocumentJob, type FetchDocumentRequest } from './fetch-document-job.ts';

/** Stands in for the module worker jsdom lacks: runs the same job and posts its messages. */
class InProcessFetchWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly received: FetchDocumentRequest[] = [];
  terminated = false;

  postMessage(request: FetchDocumentRequest) {
    this.received.push(request);
    const post = (data: unknown) => this.onmessage?.(new MessageEvent('message', { data }));
    void runFetchDocumentJob(request, (loaded, total) => {
      post({ id: request.id, kind: 'progress', loaded, total });
    }).then(post);
  }

  terminate() {
    this.terminated = true;
  }
}

const content = '%PDF-1.7 signed again';
const detail = {
  ...buildDocument({ fileName: 'register.pdf' }),
  mimeType: 'application/pdf',
  fileSize: content.length,
  file: Buffer.from(content).toString('base64'),
};

afterEach(() => {
  configureAuth({ getToken: () => null, onUnauthorized: () => Promise.resolve(false) });
});

test('a 401 in the worker runs the re-sign-in and retries once with the new token', async () => {
  let token = 'stale';
  const onUnauthorized = vi.fn(() => {
    token = 'fresh';
    return Promise.resolve(true);
  });
  configureAuth({ getToken: () => token, onUnauthorized });
  server.use(
    apiHandler('GET /api/v2/documents/:id', ({ request }) =>
      request.headers.get('Authorization') === 'Bearer fresh'
        ? envelope(detail)
        : apiError(401, 'Token expired.'),
    ),
  );
  const worker = new InProcessFetchWorker();
  const fetcher = createDocumentFetcher({
    createWorker: () => worker as unknown as Worker,
    base: location.href,
  });
  const progress = vi.fn();
  const fetched = await fetcher.fetch(detail.documentId, progress);
  expect(onUnauthorized).toHaveBeenCalledTimes(1);
  expect(worker.received.map((request) => request.token)).toEqual(['stale', 'fresh']);
  expect(fetched.detail.fileName).toBe('register.pdf');
  expect(fetched.file.mimeType).toBe('application/pdf');
  expect(await fetched.file.blob.text()).toBe(content);
  expect(progress).toHaveBeenCalled();
  fetcher.dispose();
  expect(worker.terminated).toBe(true);
});

test('when the re-sign-in is declined, the fetch fails with the 401 message', async () => {
  const onUnauthorized = vi.fn(() => Promise.resolve(false));
  configureAuth({ getToken: () => 'stale', onUnauthorized });
  server.use(apiHandler('GET /api/v2/documents/:id', () => apiError(401, 'Token expired.')));
  const worker = new InProcessFetchWorker();
  const fetcher = createDocumentFetcher({
    createWorker: () => worker as unknown as Worker,
    base: location.href,
  });
  await expect(fetcher.fetch('doc-1', () => undefined)).rejects.toMatchObject({
    status: 401,
    message: 'Your session has ended. Sign in again.',
  });
  expect(onUnauthorized).toHaveBeenCalledTimes(1);
  expect(worker.received).toHaveLength(1);
});

test('a server failure rejects with its envelope message and status', async () => {
  configureAuth({ getToken: () => 'tok', onUnauthorized: () => Promise.resolve(false) });
  server.use(apiHandler('GET /api/v2/documents/:id', () => apiError(404, 'No such document.')));
  const fetcher = createDocumentFetcher({
    createWorker: () => new InProcessFetchWorker() as unknown as Worker,
    base: location.href,
  });
  await expect(fetcher.fetch('missing', () => undefined)).rejects.toMatchObject({
    status: 404,
    message: 'No such document.',
  });
});

test('a detail that breaks the contract is refused on the main thread', async () => {
  server.use(
    apiHandler('GET /api/v2/documents/:id', () =>
      envelope({ ...detail, fileSize: 'large' as unknown as number }),
    ),
  );
  const fetcher = createDocumentFetcher({
    createWorker: () => new InProcessFetchWorker() as unknown as Worker,
    base: location.href,
  });
  await expect(fetcher.fetch('broken', () => undefined)).rejects.toMatchObject({
    status: 0,
    message: 'The server answered in a form this console does not understand.',
  });
});

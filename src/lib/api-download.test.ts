import { http, HttpResponse } from 'msw';
import { apiError } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { ApiError, apiDownload, configureAuth } from './api-client.ts';

afterEach(() => {
  configureAuth({ getToken: () => null, onUnauthorized: () => Promise.resolve(false) });
});

test('apiDownload sends the token and Accept, reports progress and returns the bytes', async () => {
  const seen: { accept: string | null; authorization: string | null; url: string }[] = [];
  server.use(
    http.get('/api/files', ({ request }) => {
      seen.push({
        accept: request.headers.get('Accept'),
        authorization: request.headers.get('Authorization'),
        url: request.url,
      });
      return new HttpResponse('a,b\n1,2\n', { headers: { 'Content-Type': 'text/csv' } });
    }),
  );
  configureAuth({ getToken: () => 'tok', onUnauthorized: () => Promise.resolve(false) });
  const progress: number[] = [];

  const blob = await apiDownload('/api/files', {
    query: { actor: 'dana', empty: '' },
    accept: 'text/csv',
    onProgress: (loaded) => progress.push(loaded),
  });

  expect(await blob.text()).toBe('a,b\n1,2\n');
  expect(blob.type).toBe('text/csv');
  expect(progress.at(-1)).toBe(8);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ accept: 'text/csv', authorization: 'Bearer tok' });
  expect(new URL(seen[0]?.url ?? '').search).toBe('?actor=dana');
});

test('apiDownload turns an error envelope into an ApiError and signs in again on a 401', async () => {
  let calls = 0;
  server.use(
    http.get('/api/files', () => {
      calls += 1;
      return calls === 1 ? apiError(401, 'Expired.') : apiError(403, 'Only auditors.');
    }),
  );
  let signIns = 0;
  configureAuth({
    getToken: () => 'tok',
    onUnauthorized: () => {
      signIns += 1;
      return Promise.resolve(true);
    },
  });

  const failure = apiDownload('/api/files', { accept: 'text/csv' });

  await expect(failure).rejects.toBeInstanceOf(ApiError);
  await expect(failure).rejects.toMatchObject({ status: 403, message: 'Only auditors.' });
  expect(signIns).toBe(1);
  expect(calls).toBe(2);
});

import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { apiError, envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { ApiError, apiRequest, buildUrl, configureAuth } from './api-client.ts';

const dataSchema = z.object({ data: z.array(z.string()) });

afterEach(() => {
  configureAuth({ getToken: () => null, onUnauthorized: () => Promise.resolve(false) });
});

test('buildUrl drops empty parameters and encodes the rest', () => {
  expect(buildUrl('/api/x', { a: 'b c', empty: '', none: undefined, n: 0, flag: false })).toBe(
    '/api/x?a=b+c&n=0&flag=false',
  );
});

test('sends the Bearer token and parses the body with the schema', async () => {
  let seenAuthorization: string | null = null;
  server.use(
    http.get('/api/things', ({ request }) => {
      seenAuthorization = request.headers.get('Authorization');
      return HttpResponse.json(envelope(['a', 'b']));
    }),
  );
  configureAuth({ getToken: () => 'tok', onUnauthorized: () => Promise.resolve(false) });
  const result = await apiRequest('/api/things', { schema: dataSchema });
  expect(result.data).toEqual(['a', 'b']);
  expect(seenAuthorization).toBe('Bearer tok');
});

test('turns an error envelope into an ApiError with its message and field errors', async () => {
  server.use(
    http.post('/api/things', () =>
      apiError(400, 'Invalid field corporateInformation.country: Use a two-letter code.', [
        { field: 'corporateInformation.country', message: 'Use a two-letter code.' },
      ]),
    ),
  );
  const failure = apiRequest('/api/things', { method: 'POST', body: { a: 1 }, schema: dataSchema });
  await expect(failure).rejects.toMatchObject({
    status: 400,
    message: 'Invalid field corporateInformation.country: Use a two-letter code.',
    fieldErrors: [{ field: 'corporateInformation.country', message: 'Use a two-letter code.' }],
  });
});

// The real service's error samples (vendor.md): status "failure", data null, once `messsage`.
test.each([
  {
    name: 'status "failure" and data null',
    body: { code: 404, status: 'failure', message: 'there is no entity with given id', data: null },
    status: 404,
    message: 'there is no entity with given id',
  },
  {
    name: 'the misspelt key messsage',
    body: { code: 400, status: 'failure', messsage: 'limit is out of range', data: null },
    status: 400,
    message: 'limit is out of range',
  },
])('shows the message of an error envelope with $name', async ({ body, status, message }) => {
  server.use(http.get('/api/things', () => HttpResponse.json(body, { status })));
  await expect(apiRequest('/api/things', { schema: dataSchema })).rejects.toMatchObject({
    status,
    message,
    fieldErrors: [],
  });
});

test('treats a 2xx whose body is an error envelope as that error', async () => {
  server.use(
    http.get('/api/things', () =>
      HttpResponse.json({
        code: 404,
        status: 'failure',
        message: 'there is no entity',
        data: null,
      }),
    ),
  );
  await expect(apiRequest('/api/things', { schema: dataSchema })).rejects.toMatchObject({
    status: 404,
    message: 'there is no entity',
  });
});

test('gives a readable message when the body is not an envelope', async () => {
  server.use(
    http.get('/api/things', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })),
  );
  await expect(apiRequest('/api/things', { schema: dataSchema })).rejects.toMatchObject({
    status: 502,
    message: 'The identity service could not be reached. Try again in a moment.',
  });
});

test('rejects a success body of the wrong shape', async () => {
  server.use(http.get('/api/things', () => HttpResponse.json({ data: 'nope' })));
  await expect(apiRequest('/api/things', { schema: dataSchema })).rejects.toBeInstanceOf(ApiError);
});

test('on 401 waits for a new sign-in, then retries with the new token', async () => {
  let token = 'old';
  server.use(
    http.get('/api/things', ({ request }) =>
      request.headers.get('Authorization') === 'Bearer new'
        ? HttpResponse.json(envelope(['ok']))
        : apiError(401, 'The token is invalid or has expired. Sign in again.'),
    ),
  );
  const onUnauthorized = vi.fn(() => {
    token = 'new';
    return Promise.resolve(true);
  });
  configureAuth({ getToken: () => token, onUnauthorized });
  await expect(apiRequest('/api/things', { schema: dataSchema })).resolves.toEqual({
    data: ['ok'],
  });
  expect(onUnauthorized).toHaveBeenCalledTimes(1);
});

test('reports download progress', async () => {
  server.use(http.get('/api/things', () => HttpResponse.json(envelope(['x'.repeat(100_000)]))));
  const progress: number[] = [];
  await apiRequest('/api/things', {
    schema: dataSchema,
    onProgress: (loaded) => progress.push(loaded),
  });
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.at(-1)).toBeGreaterThan(100_000);
});

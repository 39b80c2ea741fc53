import { useMutation, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { AppProviders } from '../app/providers.tsx';
import { apiRequest } from '../lib/api-client.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { ServiceUnavailableNotice } from './service-unavailable-notice.tsx';

const unavailable = () =>
  HttpResponse.json(
    {
      code: 503,
      status: 'error',
      message: 'The service is unavailable: its database does not answer. Try again shortly.',
      data: [],
      retryAfter: 1,
    },
    { status: 503, headers: { 'Retry-After': '1' } },
  );

const namesSchema = z.object({ data: z.array(z.string()) });

function Page() {
  const names = useQuery({
    queryKey: ['names'],
    queryFn: ({ signal }) => apiRequest('/api/v2/names', { schema: namesSchema, signal }),
  });
  const create = useMutation({
    mutationFn: () =>
      apiRequest('/api/v2/names', {
        method: 'POST',
        body: { name: 'x' },
        headers: { 'Idempotency-Key': 'draft-1' },
        schema: namesSchema,
      }),
  });
  return (
    <>
      <ServiceUnavailableNotice />
      <p>{names.data ? names.data.data.join(', ') : 'Loading names'}</p>
      <button type="button" onClick={() => create.mutate()}>
        Create
      </button>
      {create.isError ? <p>Create failed: {create.error.message}</p> : null}
    </>
  );
}

function renderPage() {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <Page />
    </AppProviders>,
  );
}

test('a read answered 503 says the service is unavailable, retries after Retry-After and loads', async () => {
  let reads = 0;
  server.use(
    http.get('/api/v2/names', () => {
      reads += 1;
      return reads === 1 ? unavailable() : HttpResponse.json(envelope(['Acme', 'Bolt']));
    }),
  );
  renderPage();
  expect(
    await screen.findByRole('status', { name: /The service is unavailable, retrying/ }),
  ).toBeVisible();
  expect(await screen.findByText('Acme, Bolt', {}, { timeout: 3000 })).toBeVisible();
  expect(reads).toBe(2);
  expect(screen.queryByRole('status', { name: /unavailable/ })).not.toBeInTheDocument();
});

test('a create answered 503 is not sent again, and no retry is announced for it', async () => {
  let creates = 0;
  server.use(
    http.get('/api/v2/names', () => HttpResponse.json(envelope([]))),
    http.post('/api/v2/names', () => {
      creates += 1;
      return unavailable();
    }),
  );
  renderPage();
  await userEvent.click(screen.getByRole('button', { name: 'Create' }));
  expect(await screen.findByText(/Create failed: The service is unavailable/)).toBeVisible();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(creates).toBe(1);
  expect(screen.queryByRole('status', { name: /retrying/ })).not.toBeInTheDocument();
});

import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import type { MockInstance } from 'vitest';
import { configureAuth } from '../../../lib/api-client.ts';
import { apiError, apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { auditPage, buildAuditEvent, present } from '../testing/audit-fixtures.ts';
import { AuditLogPage } from './audit-log-page.tsx';

// Whole pages with typing and many role queries run slowly on a shared machine.
vi.setConfig({ testTimeout: 20_000 });

let createdBlobs: Blob[] = [];
let createSpy: MockInstance<typeof URL.createObjectURL>;
let clickSpy: MockInstance<HTMLAnchorElement['click']>;
let saved: { href: string; download: string }[] = [];

beforeEach(() => {
  createdBlobs = [];
  saved = [];
  createSpy = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    createdBlobs.push(blob as Blob);
    return `blob:export-${createdBlobs.length}`;
  });
  clickSpy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
});

afterEach(() => {
  createSpy.mockRestore();
  clickSpy.mockRestore();
  configureAuth({ getToken: () => null, onUnauthorized: () => Promise.resolve(false) });
});

function renderLog(path = '/audit') {
  return renderRoute(<AuditLogPage />, { path, routePath: '/audit' });
}

/** Serves the log from `pages` (keyed by cursor, '' for the first) and records each query. */
function serveLog(pages: Record<string, ReturnType<typeof auditPage>> = { '': auditPage([]) }) {
  const queries: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/v2/audit-events', ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      return pages[query.get('cursor') ?? ''] ?? auditPage([]);
    }),
  );
  return queries;
}

const filters = () => screen.getByRole('form', { name: 'Filter the audit log' });

test('reads the filters from the address, asks for them and shows the matching events', async () => {
  const queries = serveLog({
    '': auditPage([
      buildAuditEvent({
        actor: 'dana',
        action: 'document.view',
        entityId: 'ent-1',
        entityName: 'Harbour Logistics Ltd',
        documentId: 'doc-1',
        detail: { fileName: 'passport.pdf' },
        requestId: 'req-abc',
      }),
    ]),
  });
  renderLog('/audit?actor=dana&action=document.view&from=2026-03-01&to=2026-03-31');

  expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeInTheDocument();
  const table = await screen.findByRole('table', { name: /Audit events, newest first/ });
  const rows = within(table).getAllByRole('row');
  expect(rows).toHaveLength(2);
  expect(rows[1]).toHaveTextContent('Downloaded document passport.pdf');
  expect(rows[1]).toHaveTextContent('document.view');
  expect(rows[1]).toHaveTextContent('req-abc');
  // The times are shown in UTC, and the note above the table says so.
  expect(screen.getByText(/Times are in UTC/)).toBeInTheDocument();
  expect(
    within(present(rows[1], 'a first event row')).getByRole('link', {
      name: 'Harbour Logistics Ltd',
    }),
  ).toHaveAttribute('href', '/entities/ent-1');
  expect(rows[1]).not.toHaveTextContent('ent-1');
  expect(screen.getByText('Showing 1 event, all that match.')).toBeInTheDocument();

  expect(within(filters()).getByLabelText('Actor')).toHaveValue('dana');
  expect(within(filters()).getByRole('combobox', { name: 'Action' })).toHaveValue(
    'Downloaded document (document.view)',
  );
  expect(within(filters()).getByLabelText('Entity ID')).toHaveValue('');
  expect(within(filters()).getByLabelText('From')).toHaveValue('1 Mar 2026');
  expect(within(filters()).getByLabelText('To')).toHaveValue('31 Mar 2026');
  expect(Object.fromEntries(present(queries[0], 'a request'))).toEqual({
    actor: 'dana',
    action: 'document.view',
    from: '2026-03-01',
    to: '2026-03-31',
    limit: '50',
  });
});

test('applying filters writes them to the address, and Back brings the earlier ones back', async () => {
  const queries = serveLog();
  const { user, router } = renderLog('/audit?actor=dana');

  expect(await screen.findByText('No events match')).toBeInTheDocument();
  const actor = within(filters()).getByLabelText('Actor');
  await user.clear(actor);
  await user.type(actor, 'sam');
  await user.type(within(filters()).getByLabelText('Entity ID'), 'ent-9');
  await user.type(within(filters()).getByLabelText('From'), '2026-04-01');
  await user.click(screen.getByRole('button', { name: 'Apply filters' }));

  await waitFor(() =>
    expect(router.state.location.search).toBe('?actor=sam&entityId=ent-9&from=2026-04-01'),
  );
  await waitFor(() => expect(queries.at(-1)?.get('entityId')).toBe('ent-9'));
  expect(queries.at(-1)?.get('actor')).toBe('sam');

  await act(() => router.navigate(-1));
  await waitFor(() => expect(within(filters()).getByLabelText('Actor')).toHaveValue('dana'));
  expect(within(filters()).getByLabelText('Entity ID')).toHaveValue('');
  expect(router.state.location.search).toBe('?actor=dana');

  await user.click(screen.getByRole('button', { name: 'Clear filters' }));
  await waitFor(() => expect(router.state.location.search).toBe(''));
  expect(within(filters()).getByLabelText('Actor')).toHaveValue('');
});

test('the Action filter is a searchable list of the known actions', async () => {
  const queries = serveLog();
  const { user, router } = renderLog('/audit');
  await screen.findByText('No events match');

  const action = within(filters()).getByRole('combobox', { name: 'Action' });
  await user.click(action);
  await user.type(action, 'note');
  await user.click(await screen.findByRole('option', { name: 'Added a note (note.add)' }));
  await user.click(screen.getByRole('button', { name: 'Apply filters' }));

  await waitFor(() => expect(router.state.location.search).toBe('?action=note.add'));
  await waitFor(() => expect(queries.at(-1)?.get('action')).toBe('note.add'));
});

test('the Actor column says who acted in words, with the recorded actor beneath when the words hide it', async () => {
  const recipient = '73f6c2d1-0b4e-4c8a-9f1e-2a3b4c5d6e7f';
  serveLog({
    '': auditPage([
      buildAuditEvent({ actor: `client:${recipient}`, actorName: 'Ada Byrne' }),
      buildAuditEvent({ actor: 'rhea', actorName: 'Rhea Reviewer' }),
      buildAuditEvent({ actor: 'admin-cli', action: 'account.create' }),
    ]),
  });
  renderLog('/audit');
  const table = await screen.findByRole('table', { name: /Audit events, newest first/ });
  const actorCells = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);
  expect(actorCells).toEqual([
    `Ada Byrne (the client, via the update link)client:${recipient}`,
    'Rhea Reviewer (rhea)',
    'an operator (admin command)admin-cli',
  ]);
});

test('Clear filters clears an invalid date and its error, even with nothing in the address', async () => {
  serveLog();
  const { user, router } = renderLog('/audit');
  await screen.findByText('No events match');

  await user.type(within(filters()).getByLabelText('From'), '2026-04-02');
  await user.type(within(filters()).getByLabelText('To'), '2026-04-01');
  await user.click(screen.getByRole('button', { name: 'Apply filters' }));
  expect(
    await screen.findByText('The end date must not be before the start date.'),
  ).toBeInTheDocument();
  expect(router.state.location.search).toBe('');

  await user.click(screen.getByRole('button', { name: 'Clear filters' }));

  await waitFor(() =>
    expect(
      screen.queryByText('The end date must not be before the start date.'),
    ).not.toBeInTheDocument(),
  );
  expect(within(filters()).getByLabelText('From')).toHaveValue('');
  expect(within(filters()).getByLabelText('To')).toHaveValue('');
  expect(within(filters()).getByLabelText('To')).not.toHaveAttribute('aria-invalid', 'true');
});

test('a backwards date range is refused on the field and changes nothing', async () => {
  serveLog();
  const { user, router } = renderLog('/audit');
  await screen.findByText('No events match');

  await user.type(within(filters()).getByLabelText('From'), '2026-04-02');
  await user.type(within(filters()).getByLabelText('To'), '2026-04-01');
  await user.click(screen.getByRole('button', { name: 'Apply filters' }));

  expect(
    await screen.findByText('The end date must not be before the start date.'),
  ).toBeInTheDocument();
  expect(within(filters()).getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
  expect(router.state.location.search).toBe('');
});

test('a malformed date in a shared link is shown on its field and nothing is fetched', async () => {
  const queries = serveLog();
  renderLog('/audit?from=2026-02-30');

  expect(await screen.findByText('This date does not exist.')).toBeInTheDocument();
  expect(screen.getByText('Correct the filters above to see events.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  expect(queries).toHaveLength(0);
});

test('Load more asks for the next page by cursor and adds its events below', async () => {
  const queries = serveLog({
    '': auditPage(
      [buildAuditEvent({ actor: 'ann' }), buildAuditEvent({ actor: 'ben' })],
      'cursor-2',
    ),
    'cursor-2': auditPage([buildAuditEvent({ actor: 'cal', outcome: 'failure' })]),
  });
  const { user } = renderLog('/audit?actor=x');

  expect(await screen.findByText('Showing 2 events.')).toBeInTheDocument();
  const table = screen.getByRole('table', { name: /Audit events, newest first/ });
  await user.click(screen.getByRole('button', { name: 'Load more' }));

  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
  expect(within(table).getAllByRole('row')[3]).toHaveTextContent('Failed');
  expect(screen.getByText('Showing 3 events, all that match.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  expect(queries.map((query) => [query.get('cursor'), query.get('actor')])).toEqual([
    [null, 'x'],
    ['cursor-2', 'x'],
  ]);
});

test('Export CSV downloads every matching event as CSV, with the filters and the token', async () => {
  configureAuth({ getToken: () => 'auditor-token', onUnauthorized: () => Promise.resolve(false) });
  const csv = 'id,at,actor,action\nevt-1,2026-03-01T09:00:00.000Z,dana,entity.view\n';
  const exports: { query: URLSearchParams; accept: string | null; authorization: string | null }[] =
    [];
  server.use(
    apiHandler('GET /api/v2/audit-events', ({ request }) => {
      const query = new URL(request.url).searchParams;
      if (query.get('format') !== 'csv') return auditPage([buildAuditEvent()]);
      exports.push({
        query,
        accept: request.headers.get('Accept'),
        authorization: request.headers.get('Authorization'),
      });
      return new HttpResponse(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
    }),
  );
  const { user } = renderLog('/audit?actor=dana&from=2026-03-01&to=2026-03-31');
  await screen.findByRole('table', { name: /Audit events, newest first/ });

  await user.click(screen.getByRole('button', { name: 'Export CSV' }));

  expect(
    await screen.findByText('Exported audit-log-2026-03-01-to-2026-03-31.csv (67 B).'),
  ).toBeInTheDocument();
  expect(exports).toHaveLength(1);
  const [sent] = exports;
  expect(Object.fromEntries(present(sent, 'an export request').query)).toEqual({
    actor: 'dana',
    from: '2026-03-01',
    to: '2026-03-31',
    format: 'csv',
  });
  expect(sent?.accept).toBe('text/csv');
  expect(sent?.authorization).toBe('Bearer auditor-token');
  expect(saved).toEqual([
    { href: 'blob:export-1', download: 'audit-log-2026-03-01-to-2026-03-31.csv' },
  ]);
  expect(await present(createdBlobs[0], 'a saved file').text()).toBe(csv);
});

test('a failed export says why, and the page stays usable', async () => {
  server.use(
    apiHandler('GET /api/v2/audit-events', ({ request }) =>
      new URL(request.url).searchParams.get('format') === 'csv'
        ? apiError(503, 'The audit trail is busy. Try again in a moment.')
        : auditPage([buildAuditEvent()]),
    ),
  );
  const { user } = renderLog('/audit');
  await screen.findByRole('table', { name: /Audit events, newest first/ });

  await user.click(screen.getByRole('button', { name: 'Export CSV' }));

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The export failed');
  expect(alert).toHaveTextContent('The audit trail is busy. Try again in a moment.');
  expect(saved).toEqual([]);
  expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});

test('a reviewer who opens the log by its address is told only auditors can see it', async () => {
  server.use(
    apiHandler('GET /api/v2/audit-events', () =>
      apiError(403, 'Only auditors can read the audit log.'),
    ),
  );
  renderLog('/audit');

  expect(
    await screen.findByRole('heading', { level: 2, name: 'Only auditors can see the audit log' }),
  ).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'Audit log' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to entities' })).toHaveAttribute(
    'href',
    '/entities',
  );
  expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
});

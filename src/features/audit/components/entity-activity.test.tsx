import { screen, waitFor, within } from '@testing-library/react';
import { apiError, apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { auditPage, buildAuditEvent, present } from '../testing/audit-fixtures.ts';
import { EntityActivity } from './entity-activity.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ENTITY = '00000000-0000-4000-8000-00000000a001';

test('shows the entity’s events newest first and pages older ones with "Show older"', async () => {
  const newest = buildAuditEvent({
    at: '2026-03-02T10:15:00.000Z',
    actor: 'dana',
    action: 'document.view',
    entityId: ENTITY,
    documentId: 'doc-1',
    detail: { fileName: 'passport.pdf' },
  });
  const denied = buildAuditEvent({
    at: '2026-03-02T09:00:00.000Z',
    actor: 'sam',
    action: 'verification.record',
    entityId: ENTITY,
    outcome: 'denied',
  });
  const oldest = buildAuditEvent({
    at: '2026-03-01T08:00:00.000Z',
    actor: 'lee',
    action: 'entity.view',
    entityId: ENTITY,
  });
  const requests: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      requests.push(query);
      expect(params.id).toBe(ENTITY);
      return query.get('cursor') === 'page-2'
        ? auditPage([oldest])
        : auditPage([newest, denied], 'page-2');
    }),
  );
  const { user } = renderRoute(<EntityActivity entityId={ENTITY} />);

  const section = await screen.findByRole('region', { name: 'Activity' });
  const list = await within(section).findByRole('list', { name: 'Events' });
  let items = within(list).getAllByRole('listitem');
  expect(items).toHaveLength(2);
  expect(items[0]).toHaveTextContent('Downloaded document passport.pdf');
  expect(items[0]).toHaveTextContent('by dana');
  expect(
    within(present(items[0], 'the newest event')).getByTitle('2026-03-02T10:15:00.000Z (UTC)'),
  ).toHaveAttribute('datetime', '2026-03-02T10:15:00.000Z');
  expect(
    within(present(items[0], 'the newest event')).queryByText('Denied'),
  ).not.toBeInTheDocument();
  expect(items[1]).toHaveTextContent('Recorded review outcome');
  expect(within(present(items[1], 'a second event')).getByText('Denied')).toBeInTheDocument();

  await user.click(within(section).getByRole('button', { name: 'Show older' }));

  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
  items = within(list).getAllByRole('listitem');
  expect(items[2]).toHaveTextContent('Viewed');
  expect(items[2]).toHaveTextContent('by lee');
  expect(within(section).queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  expect(requests.map((query) => query.get('cursor'))).toEqual([null, 'page-2']);
  expect(requests[0]?.get('limit')).toBe('20');
});

test('while loading it shows a labelled placeholder, then the empty state', async () => {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', async () => {
      await answered;
      return auditPage([]);
    }),
  );
  renderRoute(<EntityActivity entityId={ENTITY} />);

  expect(await screen.findByRole('status', { name: 'Loading activity' })).toBeInTheDocument();
  answer();
  expect(await screen.findByText('No activity recorded yet')).toBeInTheDocument();
  expect(screen.queryByRole('status', { name: 'Loading activity' })).not.toBeInTheDocument();
});

test('a failed load says so and Retry loads again', async () => {
  let calls = 0;
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', () => {
      calls += 1;
      return calls === 1
        ? apiError(503, 'The audit trail is unavailable.')
        : auditPage([buildAuditEvent({ action: 'entity.create', entityId: ENTITY })]);
    }),
  );
  const { user } = renderRoute(<EntityActivity entityId={ENTITY} />);

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The activity could not be loaded');
  expect(alert).toHaveTextContent('The audit trail is unavailable.');
  await user.click(within(alert).getByRole('button', { name: 'Retry' }));

  expect(await screen.findByText('Created')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

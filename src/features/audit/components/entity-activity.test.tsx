import { screen, waitFor, within } from '@testing-library/react';
import { isReadAction, type AuditEvent } from '../../../../contract/audit.ts';
import { apiError, apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { auditPage, buildAuditEvent, present } from '../testing/audit-fixtures.ts';
import { EntityActivity } from './entity-activity.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ENTITY = '00000000-0000-4000-8000-00000000a001';
const DOCUMENT = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

/** The entity's events as the server pages them: `kind` splits reads from the rest. */
function serveActivity(events: AuditEvent[], pageSize = 20) {
  const requests: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      requests.push(query);
      expect(params.id).toBe(ENTITY);
      const kind = query.get('kind');
      const matching = events.filter((event) =>
        kind === 'views' ? isReadAction(event.action) : !isReadAction(event.action),
      );
      const start = Number(query.get('cursor') ?? '0');
      const next = start + pageSize < matching.length ? String(start + pageSize) : null;
      return auditPage(matching.slice(start, start + pageSize), next);
    }),
  );
  return requests;
}

const event = (overrides: Partial<AuditEvent>) =>
  buildAuditEvent({ entityId: ENTITY, ...overrides });

test('decisions, changes and requests come first as sentences; views are folded with their count', async () => {
  const requests = serveActivity([
    event({ action: 'entity.view', actor: 'lee' }),
    event({
      action: 'document.decide',
      actor: 'dana',
      documentId: DOCUMENT,
      detail: { approved: false, reason: 'scan unreadable', fileName: 'passport.pdf' },
    }),
    event({
      action: 'document.view',
      actor: 'lee',
      documentId: DOCUMENT,
      detail: { fileName: 'passport.pdf' },
    }),
    event({
      action: 'verification.record',
      actor: 'sam',
      detail: { verificationId: DOCUMENT, status: 'Accepted', nextReviewDate: '2026-12-05' },
    }),
    event({
      action: 'verification.record',
      actor: 'eve',
      outcome: 'denied',
      detail: { status: 403 },
    }),
    event({ action: 'client-update.request', detail: { recipientName: 'Ada Byrne' } }),
    event({ action: 'note.add', detail: { noteId: DOCUMENT, length: 5 } }),
    event({ action: 'document.list' }),
  ]);
  const { user } = renderRoute(<EntityActivity entityId={ENTITY} />);

  const section = await screen.findByRole('region', { name: 'Activity' });
  const list = await within(section).findByRole('list', {
    name: 'Decisions, changes and requests',
  });
  const items = within(list).getAllByRole('listitem');
  expect(items.map((item) => item.textContent)).toEqual([
    expect.stringContaining('Rejected document passport.pdf: scan unreadable'),
    expect.stringContaining('Recorded outcome Accepted, next review 5 Dec 2026'),
    expect.stringContaining('Recorded review outcome'),
    expect.stringContaining('Requested a client update from Ada Byrne'),
    expect.stringContaining('Added a note'),
  ]);
  expect(section).not.toHaveTextContent(DOCUMENT);
  expect(items[0]).toHaveTextContent('by dana');
  expect(within(present(items[2], 'the denied attempt')).getByText('Denied')).toBeInTheDocument();
  expect(within(present(items[0], 'the decision')).queryByText('Denied')).not.toBeInTheDocument();
  expect(within(section).queryByText('Viewed')).not.toBeInTheDocument();

  const toggle = await within(section).findByRole('button', { name: 'Show views (3)' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const controlled = present(toggle.getAttribute('aria-controls') ?? undefined, 'aria-controls');
  expect(document.getElementById(controlled)).not.toBeVisible();

  // Keyboard: the toggle is a button in the tab order, opened with Enter.
  toggle.focus();
  await user.keyboard('{Enter}');
  const hide = within(section).getByRole('button', { name: 'Hide views (3)' });
  expect(hide).toHaveAttribute('aria-expanded', 'true');
  expect(document.getElementById(controlled)).toBeVisible();
  const views = within(section).getByRole('list', { name: 'Views and listings' });
  expect(
    within(views)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringContaining('Viewed'),
    expect.stringContaining('Downloaded document passport.pdf'),
    expect.stringContaining('Listed documents'),
  ]);

  await user.click(hide);
  expect(
    within(section).queryByRole('list', { name: 'Views and listings' }),
  ).not.toBeInTheDocument();
  expect(within(section).getByRole('button', { name: 'Show views (3)' })).toHaveFocus();
  expect(new Set(requests.map((query) => query.get('kind')))).toEqual(
    new Set(['changes', 'views']),
  );
});

test('"Show older" pages the changes; a views count with more pages says so', async () => {
  const notes = Array.from({ length: 25 }, (_, index) =>
    event({ action: 'note.add', actor: `reviewer-${String(index)}` }),
  );
  const viewsOnly = Array.from({ length: 101 }, () => event({ action: 'entity.view' }));
  const requests = serveActivity([...viewsOnly, ...notes], 20);
  // The views query asks for 100 a page; the fake pages by 20, so the first page has more.
  const { user } = renderRoute(<EntityActivity entityId={ENTITY} />);

  const section = await screen.findByRole('region', { name: 'Activity' });
  const list = await within(section).findByRole('list', {
    name: 'Decisions, changes and requests',
  });
  expect(within(list).getAllByRole('listitem')).toHaveLength(20);
  expect(
    await within(section).findByRole('button', { name: 'Show views (20+)' }),
  ).toBeInTheDocument();

  await user.click(within(section).getByRole('button', { name: 'Show older' }));
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
  expect(within(section).queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  const changeRequests = requests.filter((query) => query.get('kind') === 'changes');
  expect(changeRequests.map((query) => query.get('cursor'))).toEqual([null, '20']);
  expect(changeRequests[0]?.get('limit')).toBe('20');
  expect(requests.find((query) => query.get('kind') === 'views')?.get('limit')).toBe('100');
});

test('only views: the changes say there are none, the views stay one click away', async () => {
  serveActivity([event({ action: 'entity.view' })]);
  renderRoute(<EntityActivity entityId={ENTITY} />);

  const section = await screen.findByRole('region', { name: 'Activity' });
  expect(
    await within(section).findByText('No decisions, changes or requests yet.'),
  ).toBeInTheDocument();
  expect(
    await within(section).findByRole('button', { name: 'Show views (1)' }),
  ).toBeInTheDocument();
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
  expect(screen.queryByRole('button', { name: /Show views/ })).not.toBeInTheDocument();
});

test('a failed load says so and Retry loads again', async () => {
  let calls = 0;
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', ({ request }) => {
      if (new URL(request.url).searchParams.get('kind') === 'views') return auditPage([]);
      calls += 1;
      return calls === 1
        ? apiError(503, 'The audit trail is unavailable.')
        : auditPage([event({ action: 'entity.create', detail: { companyName: 'Acme Ltd' } })]);
    }),
  );
  const { user } = renderRoute(<EntityActivity entityId={ENTITY} />);

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The activity could not be loaded');
  expect(alert).toHaveTextContent('The audit trail is unavailable.');
  await user.click(within(alert).getByRole('button', { name: 'Retry' }));

  expect(await screen.findByText('Created legal entity Acme Ltd')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test("an actor reads as 'Name (username)' when the server names the account, else as the username", async () => {
  serveActivity([
    event({ action: 'note.add', actor: 'rhea', actorName: 'Rhea Reviewer' }),
    event({ action: 'note.add', actor: 'former', actorName: null }),
  ]);
  renderRoute(<EntityActivity entityId={ENTITY} />);
  const list = await screen.findByRole('list', { name: 'Decisions, changes and requests' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringContaining('by Rhea Reviewer (rhea)'),
    expect.stringContaining('by former'),
  ]);
});

test('a client acting through the update link reads as the client, by name when the server knows it, never as its ID', async () => {
  const recipient = '73f6c2d1-0b4e-4c8a-9f1e-2a3b4c5d6e7f';
  serveActivity([
    event({
      action: 'client-update.submit',
      actor: `client:${recipient}`,
      actorName: 'Ada Byrne',
      detail: { requestId: DOCUMENT, documents: [], contactFields: ['email'] },
    }),
    event({ action: 'client-update.open', actor: `client:${recipient}`, actorName: null }),
    event({ action: 'webhook.receive', actor: 'webhook:kyc', detail: { event: 'kyc.updated' } }),
  ]);
  renderRoute(<EntityActivity entityId={ENTITY} />);
  const list = await screen.findByRole('list', { name: 'Decisions, changes and requests' });
  const items = within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
  expect(items).toEqual([
    expect.stringContaining(
      'Client responded to an update requestby Ada Byrne (the client, via the update link)',
    ),
    expect.stringContaining('Client opened the update requestby the client (via the update link)'),
    expect.stringContaining('by the identity service (webhook)'),
  ]);
  expect(items.join(' ')).not.toContain(recipient);
  expect(items.join(' ')).not.toContain('client:');
});
